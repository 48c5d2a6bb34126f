import DockCore
import Foundation
import Motion

/// What a head did when told to turn a little, per axis: the turn sent and the turn it read
/// back (nil for a head that reports no position).
public struct HeadResponse: Sendable, Hashable {
    public struct Axis: Sendable, Hashable {
        public var axis: TurnAxis
        public var sent: Double
        public var read: Double?

        /// The head read a turn of at least a third of the one sent, the same way.
        public var followed: Bool { read.map { $0 * sent > 0 && abs($0) >= abs(sent) / 3 } ?? false }
        /// It read a turn of at least a third of the one sent, the other way: its controller's
        /// axis runs opposite to its commands.
        public var reversed: Bool { read.map { $0 * sent < 0 && abs($0) >= abs(sent) / 3 } ?? false }
    }
    public var axes: [Axis] = []
}

/// Asks a head, with no camera, whether it answers and turns as told: each axis it has turns
/// slowly by a few degrees (away from its nearer end) and back, through a `MotorController`
/// (limits, the deadman: the velocity is sent again every tick), with its reading before and
/// after. Real time: it sleeps between ticks, so call it from a thread of its own.
public struct HeadResponseCheck {
    public var speed = 5 * Double.pi / 180
    public var turnSeconds = 0.6
    public var settleSeconds = 0.4
    public var tick = 0.02
    let device: any MotorBackend
    let clock: any MonotonicClock

    public init(device: any MotorBackend, clock: any MonotonicClock = SystemMonotonicClock()) {
        self.device = device
        self.clock = clock
    }

    public func run() throws(CalibrationError) -> HeadResponse {
        let motors = MotorController(backend: device)
        defer { motors.stop(at: clock.now) }
        var response = HeadResponse()
        let limits = device.capabilities.limits
        for (axis, limit) in [(TurnAxis.pan, limits.yaw), (.tilt, limits.pitch)] {
            guard let limit else { continue }
            hold(seconds: settleSeconds, motors: motors)
            let start = reading(axis)
            let room = limit.positionRange.upperBound - start
            let rate = room > 2 * speed * turnSeconds ? speed : -speed
            let velocity = axis == .pan ? Vector3D(x: 0, y: rate, z: 0) : Vector3D(x: rate, y: 0, z: 0)
            try turn(velocity, motors: motors)
            hold(seconds: settleSeconds, motors: motors)
            let end = reading(axis)
            try turn(velocity * -1, motors: motors)
            let read = device.capabilities.hasPositionFeedback ? end - start : nil
            response.axes.append(HeadResponse.Axis(axis: axis, sent: rate * turnSeconds, read: read))
        }
        hold(seconds: settleSeconds, motors: motors)
        return response
    }

    private func reading(_ axis: TurnAxis) -> Double {
        let pose = device.motionState(at: clock.now).angularPositions
        return axis == .pan ? pose.y : pose.x
    }

    private func turn(_ velocity: Vector3D, motors: MotorController) throws(CalibrationError) {
        let start = clock.now
        while clock.now.seconds(since: start) < turnSeconds {
            do { _ = try motors.command(velocity, at: clock.now) } catch {
                throw CalibrationError("the head refused a command: \(error)")
            }
            Thread.sleep(forTimeInterval: tick)
        }
        motors.stop(at: clock.now)
    }

    /// Stands still for `seconds`, letting the controller poll a head that must be asked.
    private func hold(seconds: Double, motors: MotorController) {
        let start = clock.now
        while clock.now.seconds(since: start) < seconds {
            _ = motors.service(at: clock.now)
            Thread.sleep(forTimeInterval: tick)
        }
    }
}
