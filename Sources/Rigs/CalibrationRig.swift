import Capture
import DockCore
import Foundation
import Motion
import Pipeline

/// What `dockctl calibrate` turns and watches: a rig's camera, and its motor device as wired,
/// with no mount or measured latency applied (those are what it finds out).
public struct CalibrationRig {
    public let source: any FrameSource
    public let device: any MotorBackend
    /// When a command made on a frame leaves: the frame's time in a simulation (lock-step),
    /// the system clock's now with a camera.
    public let commandTime: (Frame) -> MonotonicInstant
    public let summary: String
    /// A simulation's true focal length (pixels), which calibration is checked against.
    public let simulatedFocalLength: Double?

    /// The live rig with a camera, else the simulated one, frame by frame in media time, its
    /// head starting at `initialPose`.
    public init(_ configuration: SessionConfiguration, initialPose: Vector3D = Vector3D()) throws(SessionError) {
        var c = configuration
        c.mount = .normal
        c.scales = .exact
        c.commandLatency = nil
        c.profile = .desktop
        if case .camera = c.source {
            let rig = try Rig.live(c)
            let clock = rig.clock
            commandTime = { _ in clock.now }
            (device, summary, simulatedFocalLength) = (rig.backend, rig.sourceSummary, nil)
            do { source = try rig.makeSource() } catch { throw SessionError("the camera: \(error)") }
        } else {
            c.realTime = false
            let (rig, world) = try Rig.simulated(c, initialPose: initialPose)
            guard rig.gimbal != nil else {
                throw SessionError("calibration turns a head: give --gimbal sim (or a real one with --camera)")
            }
            commandTime = { $0.stamp.time }
            (device, summary) = (rig.backend, rig.sourceSummary)
            simulatedFocalLength = world.virtualCamera?.viewIntrinsics.fx
            do { source = try rig.makeSource() } catch { throw SessionError("the simulation: \(error)") }
        }
    }
}
