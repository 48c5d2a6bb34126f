import DockCore

/// A virtual pan-tilt gimbal with the dynamics of `GimbalModel`. Time moves only when the
/// owner calls `advance(to:)`, so a simulation runs in virtual time and repeats exactly.
public final class SimulatedGimbal: MotorBackend {
    public let name = "simulated gimbal"
    public let capabilities: MotorCapabilities
    private let state: Protected<GimbalDynamics>
    private let model: GimbalModel

    public init(model: GimbalModel = GimbalModel(), start: MonotonicInstant = .zero, position: Vector3D = Vector3D()) {
        state = Protected(GimbalDynamics(model: model, start: start, position: position))
        self.model = model
        // Ranges here are the hard stops; the controller stays a little inside them.
        let yaw = try? AxisLimit(
            positionRange: model.yawRange.lowerBound..<model.yawRange.upperBound,
            maximumSpeed: model.maximumSpeed)
        let pitch = try? AxisLimit(
            positionRange: model.pitchRange.lowerBound..<model.pitchRange.upperBound,
            maximumSpeed: model.maximumSpeed)
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: true,
            speedStep: model.speedStep > 0 ? model.speedStep : nil,
            commandLatency: model.declaredLatency ?? model.latency,
            maximumAcceleration: model.maximumAcceleration)
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        state.withLock { $0.command(velocity, at: time) }
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { dynamics in
            if time > dynamics.time { dynamics.advance(to: time) }
            return MotionState(
                angularPositions: dynamics.position, angularVelocities: dynamics.velocity, time: dynamics.time)
        }
    }

    /// Where the camera truly points at `time`: the head's reading, turned by its mount and
    /// scaled by its true units.
    public func cameraPose(at time: MonotonicInstant) -> Vector3D {
        model.scales.camera(model.mount.camera(motionState(at: time).angularPositions))
    }

    public func advance(to time: MonotonicInstant) {
        state.withLock { $0.advance(to: time) }
    }
}
