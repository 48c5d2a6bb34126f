import DockCore

/// A dry run: accepts commands and reports them, moves nothing. For running the pipeline on a
/// recording without a gimbal; its motion state says it is commanded-only.
public final class NullMotorBackend: MotorBackend {
    public let name = "none (dry run)"
    public let capabilities: MotorCapabilities
    private let last = Protected((velocity: Vector3D(), time: MonotonicInstant.zero))

    public init() {
        let axis = try? AxisLimit(positionRange: -Double.pi..<Double.pi, maximumSpeed: 3)
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: axis, pitch: axis, roll: nil), hasPositionFeedback: false)
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        last.withLock { $0 = (velocity, time) }
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        let v = last.withLock { $0.velocity }
        return MotionState(angularPositions: Vector3D(), angularVelocities: v, time: time, isCommandedOnly: true)
    }
}
