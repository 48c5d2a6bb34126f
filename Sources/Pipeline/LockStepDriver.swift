import Bench
import DockCore
import Foundation

/// Runs the pipeline frame by frame in media time on one thread: each frame is perceived at
/// its own time, then the control ticks run from it to the next frame as the feeder paces them,
/// advancing the simulated gimbal. The same scene and seed give the same run.
struct LockStepDriver {
    let pipeline: Pipeline

    func run(stop: StopFlag, status: ((SessionStatus) -> Void)?, summary: inout SessionSummary) throws(SessionError) {
        let rig = pipeline.rig
        let configuration = pipeline.configuration
        let source = try makeSource()
        var control = try pipeline.makeControlStep()
        let wallClock = SystemMonotonicClock()
        let wallStart = wallClock.now
        // A thinned source's frames come at its rate: control runs until the next of them.
        let period = 1 / max(min(rig.nominalFrameRate, configuration.profile.perceptionRate ?? .infinity), 1)
        var accounting = FrameAccounting()
        var last = MonotonicInstant.zero
        pipeline.haltOnStop(stop, runStart: wallStart)
        defer { pipeline.accessory.stopMotors(at: last) }
        while !stop.isSet {
            if let limit = configuration.maximumFrames, summary.frames >= limit { break }
            let frameStart = wallClock.now
            let next: Frame?
            do { next = try source.nextFrame() } catch { throw SessionError(error.message) }
            guard let frame = next else { break }
            let now = frame.stamp.time
            if let limit = configuration.maximumDuration, now.seconds > limit { break }
            accounting.delivered += 1
            last = now
            rig.mediaClock?.mark(now)
            let perceiveStart = wallClock.now
            let p = pipeline.perceive(frame, at: now, stop: stop)
            let controlStart = wallClock.now
            runControl(
                &control, from: now, until: now.advanced(bySeconds: period), target: ControlTarget(p), stop: stop)
            let done = wallClock.now
            accounting.processed += 1
            accounting.source = source.counts
            // Waiting for the slow detectors is lock-step's doing (media time runs faster than
            // the detectors); a real-time rig never waits, so the frame's figures leave it out.
            let waited = p.waitedForLate * 1000
            let pipelineMilliseconds = done.seconds(since: perceiveStart) * 1000 - waited
            summary.timings.record("source", milliseconds: perceiveStart.seconds(since: frameStart) * 1000)
            summary.timings.record("detect", milliseconds: controlStart.seconds(since: perceiveStart) * 1000 - waited)
            if waited > 0 { summary.timings.record("late wait", milliseconds: waited) }
            summary.timings.record("control", milliseconds: done.seconds(since: controlStart) * 1000)
            summary.timings.record("pipeline", milliseconds: pipelineMilliseconds)
            pipeline.finish(
                p, time: now.seconds, wallSeconds: wallClock.now.seconds(since: wallStart),
                stages: [(SessionMonitor.frameStage, pipelineMilliseconds)], accounting: accounting, summary: &summary,
                status: status)
            summary.timings.record("frame", milliseconds: wallClock.now.seconds(since: frameStart) * 1000 - waited)
            pipeline.progress?()
        }
        pipeline.accessory.stopMotors(at: last)
        summary.accounting = accounting
        summary.stoppedBySignal = stop.signalReceived != nil
        summary.wallSeconds = wallClock.now.seconds(since: wallStart)
        summary.mediaSeconds = last.seconds
    }

    private func makeSource() throws(SessionError) -> any FrameSource {
        do { return try pipeline.rig.makeSource() } catch { throw SessionError(error.message) }
    }

    /// Control ticks from a frame to the next, as the live control thread runs them: the fresh
    /// result at once (credit allowing), then hold calls if the next frame is slow to come.
    private func runControl(
        _ control: inout ControlStep, from now: MonotonicInstant, until nextFrame: MonotonicInstant,
        target: ControlTarget, stop: StopFlag
    ) {
        var tick = now
        while tick < nextFrame {
            pipeline.rig.gimbal?.advance(to: tick)
            control.tick(at: tick, target: target, stopping: stop.isSet)
            guard let due = control.nextDue(for: target), due > tick else { break }
            tick = due
        }
    }
}
