import DockCore

/// A planned motion of the axes: poses over time from a start time. Velocity-controlled heads
/// follow it with `TrajectoryFollower`.
public struct Trajectory: Sendable {
    /// Offsets from the start pose at given times (seconds), the first at 0.
    public struct Keyframe: Sendable, Hashable {
        public var time: Double
        public var offset: Vector3D

        public init(time: Double, offset: Vector3D) {
            self.time = time
            self.offset = offset
        }
    }

    public let start: Vector3D
    public let keyframes: [Keyframe]

    public init(start: Vector3D, keyframes: [Keyframe]) {
        precondition(
            keyframes.first?.time == 0 && zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.time < $1.time },
            "keyframes start at 0 and go forward in time")
        self.start = start
        self.keyframes = keyframes
    }

    /// A smooth point-to-point move (minimum jerk: zero speed and acceleration at both ends).
    public static func move(from start: Vector3D, to end: Vector3D, duration: Double) -> Trajectory {
        Trajectory(
            start: start,
            keyframes: [
                Keyframe(time: 0, offset: Vector3D()), Keyframe(time: max(duration, 0.01), offset: end - start),
            ])
    }

    public var duration: Double { keyframes.last!.time }
    public var end: Vector3D { start + keyframes.last!.offset }

    /// Pose and velocity at `t` seconds after the start. Between keyframes the motion follows a
    /// minimum-jerk segment, so the head starts and stops smoothly at every keyframe.
    public func sample(at t: Double) -> (pose: Vector3D, velocity: Vector3D) {
        guard t > 0 else { return (start, Vector3D()) }
        guard let next = keyframes.firstIndex(where: { $0.time >= t }) else { return (end, Vector3D()) }
        let a = keyframes[max(next - 1, 0)]
        let b = keyframes[next]
        let span = b.time - a.time
        guard span > 0 else { return (start + b.offset, Vector3D()) }
        let u = (t - a.time) / span
        let s = u * u * u * (10 - 15 * u + 6 * u * u)
        let ds = 30 * u * u * (1 - u) * (1 - u) / span
        let delta = b.offset - a.offset
        return (start + a.offset + delta * s, delta * ds)
    }
}

/// Follows a trajectory with a velocity-controlled head: the planned velocity plus a
/// correction of the position error. Finishes once the time is up and the head is within
/// `tolerance` of the end (or `settleTimeout` later, whatever the head does).
public struct TrajectoryFollower: Sendable {
    public let trajectory: Trajectory
    public let startTime: MonotonicInstant
    public var gain = 6.0
    public var tolerance = 0.3 * .pi / 180
    public var settleTimeout = 1.0
    public private(set) var isFinished = false

    public init(trajectory: Trajectory, startTime: MonotonicInstant) {
        self.trajectory = trajectory
        self.startTime = startTime
    }

    /// Fraction done, 0…1, by time.
    public func fractionCompleted(at time: MonotonicInstant) -> Double {
        isFinished ? 1 : min(max(time.seconds(since: startTime) / trajectory.duration, 0), 0.99)
    }

    public mutating func command(pose: Vector3D, at time: MonotonicInstant) -> Vector3D {
        let t = time.seconds(since: startTime)
        let planned = trajectory.sample(at: t)
        let error = planned.pose - pose
        if t >= trajectory.duration {
            let done = abs(error.x) < tolerance && abs(error.y) < tolerance && abs(error.z) < tolerance
            if done || t >= trajectory.duration + settleTimeout {
                isFinished = true
                return Vector3D()
            }
        }
        return planned.velocity + error * gain
    }
}
