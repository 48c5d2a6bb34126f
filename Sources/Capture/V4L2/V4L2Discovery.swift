import DockCore
import Foundation

/// Lists capture devices with everything a person or script needs to pick one.
public enum V4L2Discovery {
    /// Every /dev/video* node that opens, with its stable names, formats and controls.
    /// Nodes that cannot be opened are reported in `failures`, not thrown.
    public static func devices(system: any VideoDeviceSystem = LinuxVideoDeviceSystem())
        -> (devices: [V4L2DeviceInfo], failures: [String])
    {
        let stable = system.stableNames()
        var devices: [V4L2DeviceInfo] = []
        var failures: [String] = []
        for node in system.deviceNodes() {
            do {
                let device = try V4L2Device(path: node, system: system)
                defer { device.close() }
                let capture = device.canCapture
                devices.append(
                    V4L2DeviceInfo(
                        path: node, stableNames: stable.filter { $0.node == node }.map(\.name),
                        card: device.card, driver: device.driver, busInfo: device.busInfo,
                        capabilities: device.capabilityNames, isVideoCapture: capture,
                        formats: capture ? try device.formats() : [],
                        controls: try device.controls()))
            } catch {
                failures.append("\(node): \(error)")
            }
        }
        return (devices, failures)
    }

    /// A listing for a person.
    public static func describe(_ devices: [V4L2DeviceInfo]) -> String {
        var lines: [String] = []
        for d in devices {
            lines.append(
                "\(d.path)  \(d.card)  [\(d.driver), \(d.busInfo)]\(d.isVideoCapture ? "" : "  (not a capture node)")")
            for name in d.stableNames { lines.append("  also: \(name)") }
            for f in d.formats {
                let sizes = f.sizes.map { s in
                    "\(s.width)x\(s.height)"
                        + (s.frameRates.isEmpty
                            ? "" : "@" + s.frameRates.map { String(format: "%g", $0) }.joined(separator: "/"))
                }
                lines.append(
                    "  \(f.fourcc.description.padding(toLength: 5, withPad: " ", startingAt: 0)) \(f.description)\(f.emulated ? " (emulated)" : ""): \(sizes.joined(separator: " "))"
                )
            }
            for c in d.controls {
                var line = "  control \(c.key) (\(c.type)) \(c.minimum)…\(c.maximum)"
                if c.step > 1 { line += " step \(c.step)" }
                line += " default \(c.defaultValue)"
                if let v = c.value { line += " = \(v)" }
                if !c.menu.isEmpty {
                    line += " {" + c.menu.map { "\($0.index): \($0.name)" }.joined(separator: ", ") + "}"
                }
                if c.readOnly { line += " read-only" }
                lines.append(line)
            }
        }
        return lines.isEmpty ? "no video devices found" : lines.joined(separator: "\n")
    }
}

extension V4L2Device {
    /// A control by its key ("zoom_absolute") or its driver name ("Zoom, Absolute").
    public func control(named name: String) throws(CaptureError) -> V4L2ControlInfo {
        let key = V4L2ControlInfo.key(for: name)
        let all = try controls()
        guard let control = all.first(where: { $0.key == key }) else {
            throw .call(
                path: path, request: "control '\(name)' (has: \(all.map(\.key).joined(separator: ", ")))",
                .invalidArgument)
        }
        return control
    }

    /// Sets a control by name; values outside its range are refused before reaching the driver.
    /// A button control is pressed whatever the value.
    public func setControl(named name: String, to value: Int64) throws(CaptureError) {
        let control = try control(named: name)
        if control.type == "button" {
            try setControl(control.id, to: 0)
            return
        }
        guard (control.minimum...control.maximum).contains(value) else {
            throw .call(
                path: path, request: "set \(control.key) to \(value) (range \(control.minimum)…\(control.maximum))",
                Errno(ERANGE))
        }
        try setControl(control.id, to: value)
    }
}
