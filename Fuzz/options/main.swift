// libFuzzer target for dockd's command line and motor device specs (build with Scripts/fuzz):
// any arguments must parse or be refused with a usage error, never crash.
import MotorDevices
import Options
import Pipeline

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOptions(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let arguments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let options = try? DockdOptions.parse(arguments) {
        _ = options.configuration.resolvedGimbal.label
        _ = options.configuration.resolvedFieldOfView
    }
    for argument in arguments { _ = MotorDeviceSpec(parsing: argument)?.description }
    return 0
}
