import DockCore
import Foundation

/// The newest control target, handed from perception to the control thread, which it wakes.
final class TargetBoard: @unchecked Sendable {
    private let condition = NSCondition()
    private var target: ControlTarget?
    private var version = 0

    func publish(_ newTarget: ControlTarget) {
        condition.lock()
        target = newTarget
        version += 1
        condition.signal()
        condition.unlock()
    }

    /// The newest target and its version.
    var latest: (target: ControlTarget?, version: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (target, version)
    }

    /// Waits until a target newer than `seen` is published, or `seconds` pass.
    func wait(newerThan seen: Int, seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while version == seen {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// Wakes the waiting thread without a new target (to let it see a stop).
    func wake() {
        condition.lock()
        version += 1
        condition.signal()
        condition.unlock()
    }
}

/// The control thread: one control step per wake-up, woken by each new result and by the
/// feeder's pacing; reports a motor device that falls silent (and answers again).
final class ControlThread: @unchecked Sendable {
    private var step: ControlStep
    private let pipeline: Pipeline
    private let board: TargetBoard
    private let stop: StopFlag
    private let ending = Protected(false)
    private let ended = Protected(false)

    init(step: ControlStep, pipeline: Pipeline, board: TargetBoard, stop: StopFlag) {
        self.step = step
        self.pipeline = pipeline
        self.board = board
        self.stop = stop
        let thread = Thread { [self] in
            loop()
            ended.withLock { $0 = true }
        }
        thread.name = "opendock.control"
        thread.start()
    }

    /// Ends the thread and waits for it.
    func finish() {
        ending.withLock { $0 = true }
        board.wake()
        while !ended.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.002) }
    }

    private func loop() {
        let accessory = pipeline.accessory
        let clock = pipeline.rig.clock
        var silent = false
        while !stop.isSet && !ending.withLock({ $0 }) {
            pipeline.progress?()
            // A gimbal that stops answering is stopped by the motor controller; say so once.
            if accessory.motors.isDeviceSilent != silent {
                silent.toggle()
                reportSilence(silent)
            }
            let (target, seen) = board.latest
            let now = clock.now
            step.tick(at: now, target: target, stopping: stop.isSet)
            // At most 50 ms: the accessory's own service (motions, the deadman) runs each tick.
            let wait = step.nextDue(for: target).map { $0.seconds(since: clock.now) } ?? 0.05
            board.wait(newerThan: seen, seconds: min(max(wait, 0.0005), 0.05))
        }
    }

    private func reportSilence(_ silent: Bool) {
        let name = pipeline.accessory.motors.backend.name
        pipeline.rig.events.withLock {
            $0.append(
                silent
                    ? .undocked("gimbal \(name) stopped answering; motors stopped until it answers")
                    : .docked("gimbal \(name) answering again"))
        }
        pipeline.deviceAvailability?(!silent)
    }
}
