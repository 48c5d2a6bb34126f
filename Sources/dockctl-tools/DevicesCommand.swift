import Capture
import DockCore
import Foundation

/// `dockctl devices [--json]`: every V4L2 device with formats, sizes, rates and controls.
public enum DevicesCommand {
    public static let help = """
        dockctl devices — list V4L2 capture devices: stable names, formats, sizes, frame rates, controls.

        Usage: dockctl devices [--json]
        """

    public static func run(arguments: [String], system: any VideoDeviceSystem = LinuxVideoDeviceSystem())
        throws(UsageError) -> (output: String, warnings: [String])
    {
        var json = false
        for argument in arguments {
            guard argument == "--json" else {
                throw UsageError("unknown devices option '\(argument)' (see dockctl devices --help)")
            }
            json = true
        }
        let (devices, failures) = V4L2Discovery.devices(system: system)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = (try? encoder.encode(devices)) ?? Data("[]".utf8)
            return (String(decoding: data, as: UTF8.self), failures)
        }
        return (V4L2Discovery.describe(devices), failures)
    }
}
