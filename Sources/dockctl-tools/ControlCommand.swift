import Capture
import DockCore
import Foundation
import Pipeline

/// `dockctl control DEVICE [KEY[=VALUE] …]`: read or write camera controls by name.
public enum ControlCommand {
    public static let help = """
        dockctl control — read or write a camera's controls by name.

        Usage: dockctl control DEVICE                 list every control with its range and value
               dockctl control DEVICE KEY…            print these controls' values
               dockctl control DEVICE KEY=VALUE…      set them (refused outside the control's range)

        Keys are the driver's names in lower case with words joined by "_" (e.g. zoom_absolute,
        pan_absolute in arc-seconds, focus_automatic_continuous, privacy); see dockctl devices.
        """

    public static func run(arguments: [String], system: any VideoDeviceSystem = LinuxVideoDeviceSystem())
        throws(UsageError) -> Result<String, SessionError>
    {
        guard let path = arguments.first, !path.hasPrefix("-") else {
            throw UsageError("control needs a device (see dockctl control --help)")
        }
        var requests: [(key: String, value: Int64?)] = []
        for item in arguments.dropFirst() {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                guard let value = Int64(parts[1]) else {
                    throw UsageError("'\(item)': the value must be a whole number")
                }
                requests.append((parts[0], value))
            } else {
                requests.append((item, nil))
            }
        }
        do {
            let device = try V4L2Device(path: path, system: system)
            defer { device.close() }
            if requests.isEmpty {
                let info = V4L2DeviceInfo(
                    path: path, stableNames: [], card: device.card, driver: device.driver, busInfo: device.busInfo,
                    capabilities: device.capabilityNames, isVideoCapture: device.canCapture, formats: [],
                    controls: try device.controls())
                return .success(V4L2Discovery.describe([info]))
            }
            var lines: [String] = []
            for request in requests {
                if let value = request.value { try device.setControl(named: request.key, to: value) }
                let control = try device.control(named: request.key)
                lines.append("\(control.key)=\(control.value.map(String.init) ?? "(write-only)")")
            }
            return .success(lines.joined(separator: "\n"))
        } catch {
            return .failure(SessionError(error.description))
        }
    }
}
