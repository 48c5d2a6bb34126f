import Foundation
// libFuzzer target for dockd's configuration file (build with Scripts/fuzz): any bytes must
// become settings or be refused with a usage error naming the key, never crash; settings must
// then parse as the options they stand for.
import Options

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let settings = try? DockdConfigFile.settings(from: bytes, directory: "/nonexistent") else { return 0 }
    if let options = try? DockdOptions.parse(settings.flatMap(\.tokens)) {
        _ = options.configuration.resolvedGimbal.label
    }
    return 0
}
