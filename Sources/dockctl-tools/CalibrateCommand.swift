import Calibration
import DockCore
import Foundation
import Options
import Pipeline
import Rigs

/// `dockctl calibrate`: turns the head a little on each axis, watches the camera, and says (and
/// with --write, saves) which way each axis turns, the field of view and the command latency.
struct CalibrateCommand {
    static let help = """
        dockctl calibrate — learn how a head is mounted and wired by turning it and watching its camera.

        Usage: dockctl calibrate --camera DEVICE --gimbal SPEC [--write FILE] [--json] [camera options]
               dockctl calibrate --source FILE [--view WxH] [--view-hfov DEG] [--write FILE]   (simulated head)

        Turns pan, then tilt, by about 8° at 10°/s and back, with a picture before and after
        each turn. From how the picture moved it finds the angle the camera really turned and
        the camera's focal length; against what the head read, whether the axis turns the camera
        the way the head thinks (else it is mounted inverted) and its units; from when the picture
        starts to move, the command latency. Start with the head level, pointed at a still, lit,
        detailed scene with nobody walking through it (a blank wall gives nothing to follow).

        --write FILE saves what it found as a dockd configuration file (gimbal.pan_direction,
        gimbal.tilt_direction, gimbal.command_latency_ms, source.hfov_deg): dockd --config FILE.
        Other options are dockd's (--size, --fps, --calibration, …). Without --camera the head
        is the simulated one, watching a recording through its virtual camera.
        """

    var write: String?
    var json = false
    var configuration: SessionConfiguration

    init(arguments: [String]) throws {
        var rest = arguments[...]
        var passThrough: [String] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--write":
                guard let file = rest.popFirst() else { throw UsageError("--write needs a file") }
                write = file
            case "--json": json = true
            default: passThrough.append(argument)
            }
        }
        var c = try DockdOptions.parse(passThrough).configuration
        if case .camera = c.source {
            guard case .device = c.resolvedGimbal else {
                throw UsageError("calibrate turns a head: give --gimbal (e.g. simplebgc:/dev/ttyUSB0) with --camera")
            }
        } else {
            guard case .file = c.source else {
                throw UsageError("calibrate needs something to watch: --camera DEVICE with --gimbal, or --source FILE")
            }
            c.gimbal = .sim
        }
        configuration = c
    }

    func run(progress: (String) -> Void) throws -> String {
        // Ctrl-C or SIGTERM tells the head to stop at once, from the signal's own thread.
        let stop = StopFlag()
        stop.installSignalHandlers()
        let rig = try CalibrationRig(configuration)
        progress("calibrating \(rig.device.name) watching \(rig.summary)")
        let found = try HeadCalibrator(
            source: rig.source, device: rig.device, stop: stop, commandTime: rig.commandTime
        ).run(progress: progress)
        let settings = try JSONSerialization.data(
            withJSONObject: found.configuration, options: [.prettyPrinted, .sortedKeys])
        if let write {
            do { try settings.write(to: URL(fileURLWithPath: write)) } catch {
                throw SessionError("cannot write \(write): \(error.localizedDescription)")
            }
            progress("wrote \(write): run dockd --config \(write) with the same camera and head")
        }
        return json ? String(decoding: settings, as: UTF8.self) : found.report.joined(separator: "\n")
    }
}
