import DockCore
import Foundation
import Motion

extension AccessoryAnimation {
    var motion: MotionAnimation {
        switch self {
        case .yes: .yes
        case .no: .no
        case .wakeup: .wakeup
        case .kapow: .kapow
        }
    }
}

/// Runs the accessory's own motions — `setOrientation` trajectories, animations and a client's
/// held velocity — and publishes motion states. At most two motion calls per second, as DockKit
/// allows. A held velocity is sent again on every tick, so it lasts while the control loop runs
/// and the deadman stops it within 200 ms when the loop stops.
final class MotionDirector: Sendable {
    private struct State {
        var follower: TrajectoryFollower?
        var held: Vector3D?
        var progress: Progress?
        var calls: [MonotonicInstant] = []
        var lastPublished: MonotonicInstant?
    }
    private let state = Protected(State())
    private let motors: MotorController
    let states = Broadcast<AccessoryMotionState>()
    /// Motion states are published at most this often (Hz).
    let publishRate = 30.0

    init(motors: MotorController) { self.motors = motors }

    var isActive: Bool { state.withLock { $0.follower != nil || $0.held != nil } }

    /// Keeps the axes turning at `velocity` (a client's `setAngularVelocity`); ends any move.
    func hold(_ velocity: Vector3D) {
        state.withLock { state in
            state.progress?.cancel()
            state.progress = nil
            state.follower = nil
            state.held = velocity
        }
    }

    /// Starts a trajectory; the returned progress completes when the head has arrived.
    func start(_ trajectory: Trajectory, at time: MonotonicInstant) throws(DockKitError) -> Progress {
        let progress = Progress(totalUnitCount: 1000)
        try state.withLock { state throws(DockKitError) in
            state.calls.removeAll { time.seconds(since: $0) >= 1 }
            guard state.calls.count < 2 else { throw .frameRateTooHigh }
            state.calls.append(time)
            state.progress?.cancel()
            state.held = nil
            state.follower = TrajectoryFollower(trajectory: trajectory, startTime: time)
            state.progress = progress
        }
        return progress
    }

    /// Abandons the motion in progress (its progress is cancelled).
    func cancel() {
        state.withLock { state in
            state.progress?.cancel()
            state.progress = nil
            state.follower = nil
            state.held = nil
        }
    }

    /// One tick: drives the trajectory in progress and publishes the motion state, from the
    /// head's reading `motion` the tick took at `time`.
    func service(_ motion: MotionState, at time: MonotonicInstant) {
        let command: Vector3D? = state.withLock { state in
            guard var follower = state.follower else { return state.held }
            let v = follower.command(pose: motion.angularPositions, at: time)
            state.progress?.completedUnitCount = Int64(follower.fractionCompleted(at: time) * 1000)
            if follower.isFinished {
                state.progress?.completedUnitCount = 1000
                state.progress = nil
                state.follower = nil
            } else {
                state.follower = follower
            }
            return v
        }
        if let command {
            do { try motors.command(command, motion: motion, at: time) } catch { cancel() }
        }
        publish(motion, at: time)
    }

    func stream() -> AsyncStream<AccessoryMotionState> { states.stream(buffer: 8) }

    private func publish(_ motion: MotionState, at time: MonotonicInstant) {
        guard states.hasSubscribers else { return }
        let due = state.withLock { state in
            if let last = state.lastPublished, time.seconds(since: last) < 1 / publishRate { return false }
            state.lastPublished = time
            return true
        }
        guard due else { return }
        states.yield(
            AccessoryMotionState(
                angularPositions: motion.angularPositions, angularVelocities: motion.angularVelocities,
                // As DockKit: the time of day, in seconds since 1970.
                timestamp: Date().timeIntervalSince1970,
                error: motion.isCommandedOnly ? CommandedStateOnly() : nil))
    }
}
