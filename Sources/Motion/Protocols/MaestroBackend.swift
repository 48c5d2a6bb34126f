import DockCore
import Foundation

/// A hobby pan-tilt head on a Pololu Maestro: hobby servos take positions, not speeds, and
/// report nothing back, so velocity commands are integrated into position targets here and the
/// motion state is the commanded one (said so by `isCommandedOnly`). Stopping holds the pose.
public final class MaestroBackend: MotorBackend {
    public let name: String
    public let capabilities: MotorCapabilities
    public let pan: ServoAxis
    public let tilt: ServoAxis
    private let runner: LinkRunner

    private struct State: Sendable {
        var answer: [UInt8] = []
        var pose = Vector3D()
        var velocity = Vector3D()
        var time: MonotonicInstant?
    }
    private let state: Protected<State>

    /// Connects and asks the controller for its error flags (two bytes back) within two seconds.
    public init(
        name: String, pan: ServoAxis = ServoAxis(channel: 0), tilt: ServoAxis = ServoAxis(channel: 1),
        maximumSpeed: Double = 3, open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
        onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }
    ) throws(LinkError) {
        self.name = name
        self.pan = pan
        self.tilt = tilt
        let state = Protected(State())
        self.state = state
        runner = try LinkRunner(
            name: name, open: open, onBytes: { bytes in state.withLock { $0.answer += bytes } }, onEvent: onEvent)
        let yaw = try? AxisLimit(positionRange: pan.angleRange, maximumSpeed: maximumSpeed)
        let pitch = try? AxisLimit(positionRange: tilt.angleRange, maximumSpeed: maximumSpeed)
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: false)
        try runner.handshake(Maestro.getErrors, what: "the Maestro get-errors command") {
            state.withLock { $0.answer.count >= 2 }
        }
        // Start centred.
        do {
            try runner.send(
                Maestro.setTarget(channel: pan.channel, quarterMicroseconds: UInt16(pan.pulse(for: 0) * 4))
                    + Maestro.setTarget(channel: tilt.channel, quarterMicroseconds: UInt16(tilt.pulse(for: 0) * 4)))
        } catch {
            runner.close()
            throw error
        }
    }

    deinit { runner.close() }
    public func close() { runner.close() }
    public var isConnected: Bool { runner.isConnected }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let pose = state.withLock { s -> Vector3D in
            if let last = s.time {
                let dt = min(max(time.seconds(since: last), 0), 0.1)
                s.pose.y = Self.clamp(s.pose.y + s.velocity.y * dt, pan.angleRange)
                s.pose.x = Self.clamp(s.pose.x + s.velocity.x * dt, tilt.angleRange)
            }
            s.time = time
            s.velocity = velocity
            return s.pose
        }
        try runner.send(
            Maestro.setTarget(channel: pan.channel, quarterMicroseconds: UInt16(pan.pulse(for: pose.y) * 4))
                + Maestro.setTarget(channel: tilt.channel, quarterMicroseconds: UInt16(tilt.pulse(for: pose.x) * 4)))
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { s in
            var pose = s.pose
            if let last = s.time {
                let dt = min(max(time.seconds(since: last), 0), 0.1)
                pose.y = Self.clamp(pose.y + s.velocity.y * dt, pan.angleRange)
                pose.x = Self.clamp(pose.x + s.velocity.x * dt, tilt.angleRange)
            }
            return MotionState(angularPositions: pose, angularVelocities: s.velocity, time: time, isCommandedOnly: true)
        }
    }

    static func clamp(_ v: Double, _ r: Range<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
}
