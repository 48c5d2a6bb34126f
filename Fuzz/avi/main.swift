// libFuzzer target for recordings read without FFmpeg (build with Scripts/fuzz): any bytes must
// either be refused as not an MJPEG AVI or give frames that lie inside the file, never crash.
import Capture
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVI(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    guard let reader = try? MJPEGAVIReader(data: bytes) else { return 0 }
    var total = 0
    while let packet = reader.nextPacket() {
        total += packet.count
        precondition(total <= size, "frames larger than the file")
    }
    return 0
}
