import Calibration
import DockCore
import Foundation
import Motion
import MotorDevices
import Pipeline
import Rigs

/// The doctor's head checks, which move it: does it answer and turn as told (its own readings),
/// and, with a camera to watch, which way it turns the camera against how it is configured.
extension DoctorCommand {
    func headFindings(_ c: SessionConfiguration) -> [Finding] {
        var findings: [Finding] = []
        let camera: String? = if case .camera(let path) = c.source { path } else { nil }
        if case .device(let spec) = c.resolvedGimbal {
            findings += response(of: spec, camera: camera)
            guard !findings.contains(where: { $0.status == .problem }) else { return findings }
        }
        if camera != nil || c.resolvedGimbal == .sim { findings += pictureDirections(c) }
        return findings
    }

    /// Connects and turns each axis a little, with no camera: the head's own story.
    private func response(of spec: MotorDeviceSpec, camera: String?) -> [Finding] {
        let device: any MotorBackend
        do { device = try spec.connect(camera: camera) { _ in } } catch {
            return [
                Finding(
                    status: .problem,
                    line:
                        "head \(spec): \(error); check its power and cable, and the port and baud in --gimbal (dockctl devices lists ports)"
                )
            ]
        }
        let response: HeadResponse
        do { response = try HeadResponseCheck(device: device).run() } catch {
            return [Finding(status: .problem, line: "head \(spec): answers, but \(error)")]
        }
        return response.axes.map { axis in
            let sent = String(format: "sent %+.1f°", axis.sent * 180 / .pi)
            guard let read = axis.read else {
                return Finding(
                    status: .ok,
                    line:
                        "head \(spec) \(axis.axis.rawValue): took the commands (\(sent)); it reports no position, so only its camera can show the turn: run doctor with --camera as well"
                )
            }
            let readText = String(format: "read %+.1f°", read * 180 / .pi)
            if axis.followed {
                return Finding(
                    status: .ok,
                    line: "head \(spec) \(axis.axis.rawValue): answers and turns as told (\(sent), \(readText))")
            }
            if axis.reversed {
                return Finding(
                    status: .problem,
                    line:
                        "head \(spec) \(axis.axis.rawValue): reads its turns the opposite way from its commands (\(sent), \(readText)): its controller's \(axis.axis.rawValue) direction is reversed; set it right in the controller's own configuration (for SimpleBGC, the motor's direction in its configuration program)"
                )
            }
            return Finding(
                status: .problem,
                line:
                    "head \(spec) \(axis.axis.rawValue): answers but did not turn (\(sent), \(readText)); check that its motors are powered and switched on"
            )
        }
    }

    /// Turns the head while watching its camera (`dockctl calibrate`'s measurement) and holds
    /// each axis's direction against the configured mount.
    private func pictureDirections(_ c: SessionConfiguration) -> [Finding] {
        let found: HeadCalibration
        do {
            let rig = try CalibrationRig(c)
            found = try HeadCalibrator(source: rig.source, device: rig.device, commandTime: rig.commandTime).run()
        } catch {
            return [
                Finding(
                    status: .warning,
                    line:
                        "head: which way it turns the camera could not be seen: \(error); point the camera at a still, detailed scene and run dockctl calibrate"
                )
            ]
        }
        let configured = [
            (found.pan, c.mount.panInverted, c.scales.pan, "pan"),
            (found.tilt, c.mount.tiltInverted, c.scales.tilt, "tilt"),
        ]
        return configured.compactMap { axis, inverted, scale, name in
            guard let axis else { return nil }
            let turns = String(
                format: "the head read %+.1f°, the camera turned %+.1f°", axis.readTurn * 180 / .pi,
                axis.cameraTurn * 180 / .pi)
            let wanted = axis.isInverted ? "inverted" : "normal"
            if axis.isInverted == inverted, abs(axis.scale / scale - 1) > HeadCalibration.scaleTolerance {
                return Finding(
                    status: .problem,
                    line: String(
                        format:
                            "head %@: turns the camera %.2f° per degree it reads, not the %.2f° configured (%@), so it overshoots or falls short of each correction; start dockd with --%@-scale %.2f (dockctl calibrate --write FILE saves it)",
                        name as NSString, axis.scale, scale, turns as NSString, name as NSString, axis.scale))
            }
            if axis.isInverted == inverted {
                return Finding(
                    status: .ok,
                    line: "head \(name): turns the camera as configured, --\(name)-direction \(wanted) (\(turns))")
            }
            return Finding(
                status: .problem,
                line:
                    "head \(name): turns the camera the other way from --\(name)-direction \(inverted ? "inverted" : "normal") (\(turns)), so tracking would run away from the person; start dockd with --\(name)-direction \(wanted) (dockctl calibrate --write FILE saves it)"
            )
        }
    }
}
