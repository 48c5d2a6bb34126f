// libFuzzer target for the camera's JPEG input path (build with Scripts/fuzz): any bytes must
// either decode to a frame of the size the header announces or be refused, never crash; and a
// region decoded from the kept JPEG (a second look) likewise.
import Capture
import DockCore

nonisolated(unsafe) let decoder = JPEGDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let scale = DecodeScale.allCases[Int(data[0]) % DecodeScale.allCases.count]
    let format: PixelFormat = data[0] & 0x80 != 0 ? .gray : .bgr
    let body = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    // Refuse giant images before allocating: a fuzzer can announce 65535×65535.
    guard let header = try? decoder.size(of: body), header.width * header.height <= 4096 * 4096 else { return 0 }
    if let frame = try? decoder.decode(body, scale: scale, format: format, stamp: FrameStamp(sequence: 0, time: .zero))
    {
        precondition(
            frame.width == scale.scaled(header.width) && frame.height == scale.scaled(header.height), "JPEG size")
    }
    // A quarter-size region at one of four places down the diagonal (the input's second byte).
    let detail = JPEGDetail(copying: body, fullSize: header)
    let bounds = detail.size(scale: scale.rawValue)
    let corner = Int(data[1] % 4)
    let rect = PixelRect(
        x: Double(corner * bounds.width / 4), y: Double(corner * bounds.height / 4),
        width: Double(max(1, bounds.width / 4)), height: Double(max(1, bounds.height / 4)))
    if let region = detail.region(rect, scale: scale.rawValue, format: format) {
        precondition(region.width == Int(rect.width) && region.height == Int(rect.height), "region size")
    }
    return 0
}
