import DockCore
import Foundation
import Motion

extension DockAccessory {
    /// Where the axes are, how fast they turn, and when (seconds on the monotonic clock).
    public struct MotionState: Sendable {
        public var angularPositions: Vector3D
        public var angularVelocities: Vector3D
        public var timestamp: TimeInterval
        /// Set when the device could not report; positions are then the commanded ones.
        public var error: (any Error)?
    }

    public typealias MotionStates = AsyncStream<MotionState>

    /// DockKit's canned motions.
    public enum Animation: Hashable, Sendable {
        case yes, no, wakeup, kapow

        var motion: MotionAnimation {
            switch self {
            case .yes: .yes
            case .no: .no
            case .wakeup: .wakeup
            case .kapow: .kapow
            }
        }
    }
}

/// A device without position feedback reports what it was told; motion states carry this.
public struct CommandedStateOnly: Error, Sendable, CustomStringConvertible {
    public var description: String { "the device has no position feedback; these are the commanded values" }
}

/// Runs the accessory's own motions — `setOrientation` trajectories and animations — and
/// publishes motion states. At most two motion calls per second, as DockKit allows.
final class MotionDirector: Sendable {
    private struct State {
        var follower: TrajectoryFollower?
        var progress: Progress?
        var calls: [MonotonicInstant] = []
        var subscribers: [UUID: AsyncStream<DockAccessory.MotionState>.Continuation] = [:]
        var lastPublished: MonotonicInstant?
    }
    private let state = Protected(State())
    private let motors: MotorController
    /// Motion states are published at most this often (Hz).
    let publishRate = 30.0

    init(motors: MotorController) { self.motors = motors }

    var isActive: Bool { state.withLock { $0.follower != nil } }

    /// Starts a trajectory; the returned progress completes when the head has arrived.
    func start(_ trajectory: Trajectory, at time: MonotonicInstant) throws(DockKitError) -> Progress {
        let progress = Progress(totalUnitCount: 1000)
        try state.withLock { state throws(DockKitError) in
            state.calls.removeAll { time.seconds(since: $0) >= 1 }
            guard state.calls.count < 2 else { throw .frameRateTooHigh }
            state.calls.append(time)
            state.progress?.cancel()
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
        }
    }

    /// One tick: drives the trajectory in progress and publishes the motion state.
    func service(at time: MonotonicInstant) {
        let motion = motors.backend.motionState(at: time)
        let command: Vector3D? = state.withLock { state in
            guard var follower = state.follower else { return nil }
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
            do { try motors.command(command, at: time) } catch { cancel() }
        }
        publish(motion, at: time)
    }

    func stream() -> DockAccessory.MotionStates {
        let (stream, continuation) = AsyncStream<DockAccessory.MotionState>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    func finishStreams() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return state.subscribers.values
        }
        for s in subscribers { s.finish() }
    }

    private func publish(_ motion: MotionState, at time: MonotonicInstant) {
        let subscribers: [AsyncStream<DockAccessory.MotionState>.Continuation] = state.withLock { state in
            if let last = state.lastPublished, time.seconds(since: last) < 1 / publishRate { return [] }
            state.lastPublished = time
            return Array(state.subscribers.values)
        }
        guard !subscribers.isEmpty else { return }
        let value = DockAccessory.MotionState(angularPositions: motion.angularPositions, angularVelocities: motion.angularVelocities,
                                              timestamp: motion.time.seconds,
                                              error: motion.isCommandedOnly ? CommandedStateOnly() : nil)
        for s in subscribers { s.yield(value) }
    }
}
