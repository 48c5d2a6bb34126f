import Calibration
import DockCore
import Foundation
import Motion
import Pipeline

/// `dockctl calibrate` done by itself the first time a head and a camera are used together.
/// When the configuration says nothing of how the head is built (`headDescribed`: no direction,
/// scale or latency given), what was learnt at an earlier start for this head and camera is
/// applied; with nothing saved, `HeadCalibrator` turns each axis a little before tracking
/// starts, and what it finds is saved (one small JSON file per head and camera in the state
/// directory) and applied. A calibration that fails says why in a line and the run goes on
/// with the configuration as given.
public struct FirstUseCalibration {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// Where the state lives: systemd's StateDirectory, else $XDG_STATE_HOME/opendock, else
    /// ~/.local/state/opendock.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(state) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/opendock" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/opendock"
    }

    /// The file for this head and camera: their names with anything but letters, digits, '.'
    /// and '-' made '_'.
    public func file(for c: SessionConfiguration) -> String? {
        let head: String
        switch c.resolvedGimbal {
        case .device(let spec): head = spec.description
        case .sim: head = "sim"
        case .dryRun: return nil
        }
        let camera: String =
            switch c.source {
            case .camera(let path): path
            case .file(let path): path
            case .demo: "demo"
            }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        let name = String((head + "--" + camera).map { allowed.contains($0) ? $0 : "_" })
        return directory + "/heads/" + name + ".json"
    }

    /// Whether dockd calibrates this configuration before it runs: a live camera and a real head,
    /// asked for, with the head not described already.
    public static func applies(to c: SessionConfiguration) -> Bool {
        guard c.calibrateAtFirstUse, !c.headDescribed, case .camera = c.source, case .device = c.resolvedGimbal
        else { return false }
        return true
    }

    /// The configuration with what is known of the head applied: saved, or learnt now (and
    /// saved). `say` gets the lines to log; `stop` set (a signal) halts the head at once and
    /// ends the calibration.
    public func prepare(_ configuration: SessionConfiguration, stop: StopFlag = StopFlag(), say: (String) -> Void)
        -> SessionConfiguration
    {
        guard let path = file(for: configuration) else { return configuration }
        if let data = FileManager.default.contents(atPath: path),
            let saved = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        {
            say("calibration: \(path), learnt at an earlier start (delete it to learn the head anew)")
            return Self.apply(saved, to: configuration)
        }
        say("calibration: nothing known of this head and camera yet; turning each axis about 8° and back to learn it")
        let found: HeadCalibration
        do {
            let rig = try CalibrationRig(configuration)
            found = try HeadCalibrator(
                source: rig.source, device: rig.device, stop: stop, commandTime: rig.commandTime
            ).run(progress: say)
        } catch {
            say(
                "calibration at first use failed: \(error); tracking with the configuration as given (point the camera at a still, detailed scene and run dockctl calibrate)"
            )
            return configuration
        }
        for line in found.report { say("calibration: " + line) }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let data = try JSONSerialization.data(
                withJSONObject: found.configuration, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: path))
            say("calibration: saved to \(path)")
        } catch {
            say("calibration: could not save it (\(error.localizedDescription)); it will run again at the next start")
        }
        return Self.apply(found.configuration, to: configuration)
    }

    /// A calibration's findings (as `HeadCalibration.configuration` writes them) on a configuration.
    static func apply(_ found: [String: [String: Any]], to configuration: SessionConfiguration) -> SessionConfiguration
    {
        var c = configuration
        let gimbal = found["gimbal"] ?? [:]
        c.mount = MountDirections(
            panInverted: gimbal["pan_direction"] as? String == "inverted",
            tiltInverted: gimbal["tilt_direction"] as? String == "inverted")
        c.scales = AxisScales(
            pan: gimbal["pan_scale"] as? Double ?? 1, tilt: gimbal["tilt_scale"] as? Double ?? 1)
        if let latency = gimbal["command_latency_ms"] as? Double { c.commandLatency = latency / 1000 }
        if c.sourceFieldOfView == nil, c.calibrationFile == nil, let hfov = found["source"]?["hfov_deg"] as? Double {
            c.sourceFieldOfView = hfov
        }
        c.headDescribed = true
        return c
    }
}
