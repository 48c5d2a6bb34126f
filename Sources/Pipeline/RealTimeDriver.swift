import Capture
import DockCore
import DockKit
import Foundation

/// Runs the pipeline in real time on three threads: capture (the rig's source into a
/// newest-only mailbox), perception (the caller's thread) and control (its own thread, woken by
/// each new result and by the feeder's hold interval), so a result goes out as soon as it
/// exists and commands keep coming however long a frame takes.
struct RealTimeDriver {
    let pipeline: Pipeline

    func run(stop: StopFlag, status: ((SessionStatus) -> Void)?, summary: inout SessionSummary) throws(SessionError) {
        let rig = pipeline.rig
        let configuration = pipeline.configuration
        // A simulation's media time starts now; a camera's clock is the system's.
        rig.mediaClock?.mark(.zero)
        let clock = rig.clock
        let start = clock.now
        let wallClock = SystemMonotonicClock()
        let wallStart = wallClock.now
        let board = TargetBoard()
        let control = ControlThread(step: try pipeline.makeControlStep(), pipeline: pipeline, board: board, stop: stop)
        // Streaming starts here, once the detectors exist and control is ready for results.
        let capture = CaptureThread(
            name: "opendock.capture", makeSource: rig.makeSource, onFrame: pipeline.videoOut.map { $0.post })
        pipeline.haltOnStop(stop, runStart: wallStart)
        var stopped = false
        func shutdown() {
            guard !stopped else { return }
            stopped = true
            rig.cancel()
            capture.stop()
            control.finish()
            pipeline.accessory.stopMotors(at: clock.now)
            // The capture thread closes the camera when it ends; give it a second.
            let deadline = wallClock.now.advanced(bySeconds: 1)
            while !capture.isFinished && wallClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        }
        defer { shutdown() }

        var audioEnded = false
        var first: MonotonicInstant?
        var accounting = FrameAccounting()
        func account() {
            accounting.delivered = capture.mailbox.posted
            accounting.replacedByNewer = capture.mailbox.replaced
            accounting.source = capture.sourceCounts
        }
        while !stop.isSet {
            pipeline.reportEvents(audioEnded: &audioEnded)
            if let limit = configuration.maximumFrames, summary.frames >= limit { break }
            if let limit = configuration.maximumDuration, clock.now.seconds(since: start) > limit { break }
            let taken: Frame?
            do { taken = try capture.mailbox.take(timeout: 0.25) } catch { throw SessionError(error.message) }
            guard let frame = taken else {
                if capture.mailbox.closed { break }
                account()
                pipeline.monitor.recordAccounting(accounting)
                continue
            }
            let begin = clock.now
            let origin = first ?? frame.stamp.time
            first = origin
            let p = pipeline.perceive(frame, at: begin, stop: stop)
            board.publish(ControlTarget(p))
            let end = clock.now
            let ms = { (from: MonotonicInstant, to: MonotonicInstant) in to.seconds(since: from) * 1000 }
            summary.timings.record("capture→ready", milliseconds: ms(frame.stamp.time, begin))
            summary.timings.record("detect", milliseconds: ms(begin, end))
            summary.timings.record("pipeline", milliseconds: ms(begin, end))
            summary.timings.record("capture→tracked", milliseconds: ms(frame.stamp.time, end))
            accounting.processed += 1
            account()
            pipeline.finish(
                p, time: frame.stamp.time.seconds(since: origin), wallSeconds: clock.now.seconds(since: origin),
                stages: [(SessionMonitor.frameStage, ms(frame.stamp.time, end)), ("detect+track", ms(begin, end))],
                accounting: accounting, summary: &summary, status: status)
            summary.timings.record("frame", milliseconds: ms(begin, clock.now))
        }
        summary.stoppedBySignal = stop.signalReceived != nil
        shutdown()
        account()
        summary.accounting = accounting
        pipeline.monitor.recordAccounting(accounting)
        summary.wallSeconds = wallClock.now.seconds(since: wallStart)
        summary.mediaSeconds = summary.wallSeconds
    }
}

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
        if silent { pipeline.manager?.undock(pipeline.accessory) } else { pipeline.manager?.dock(pipeline.accessory) }
    }
}
