// libFuzzer target for the camera's JPEG input path (build with Scripts/fuzz): any bytes must
// either decode to a frame of the size the header announces or be refused, never crash.
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
    if let frame = try? decoder.decode(body, scale: scale, format: format, stamp: FrameStamp(sequence: 0, time: .zero)) {
        precondition(frame.width == scale.scaled(header.width) && frame.height == scale.scaled(header.height), "JPEG size")
    }
    return 0
}
