import DockCore
import Foundation

/// What the next call for a frame gave.
enum FrameArrival {
    case frame(Frame)
    /// None came for a while (a live camera between frames, or unplugged).
    case idle
    /// The source has no more.
    case end
}

/// How frames reach perception and how control runs between them: the only thing in which the
/// rigs' runs differ. Real time (`RealTimePolicy`): a capture thread and a control thread on the
/// rig's clock. Lock-step (`LockStepPolicy`): one thread in media time, so a run repeats exactly.
protocol ClockPolicy {
    /// Starts the threads, if any, once the pipeline is ready for frames.
    mutating func start(stop: StopFlag) throws(SessionError)
    /// Whether the run is past `seconds`: before a frame is taken (`frame` nil) in real time, by
    /// the clock; after, in lock-step, by the frame's media time.
    func isPast(_ seconds: Double, frame: Frame?) -> Bool
    mutating func nextFrame() throws(SessionError) -> FrameArrival
    /// Starts work on `frame`; returns perception's now for it: its capture time in lock-step
    /// (where media time moves to it), the clock's time live.
    mutating func begin(_ frame: Frame) -> MonotonicInstant
    /// Hands a frame's result to control. Lock-step runs the control ticks up to the next frame
    /// here; real time wakes the control thread.
    mutating func control(_ target: ControlTarget, from now: MonotonicInstant, stop: StopFlag)
    /// Seconds from the run's first frame to `frame`'s capture, and to now on the rig's clock.
    mutating func times(of frame: Frame) -> (media: Double, wall: Double)
    /// What the source delivered and what became of it, with `processed` frames perceived.
    func accounting(processed: Int) -> FrameAccounting
    /// Whether a frame's capture time is on the rig's clock (real time), so its age means something.
    var capturesOnTheClock: Bool { get }
    /// Whether a wait for the slow detectors is the policy's own doing, left out of the frame's
    /// figures: in lock-step media time outruns the detectors; live, a wait is real latency.
    var waitIsArtificial: Bool { get }
    /// Stops the threads and the motors. Called once, however the run ends.
    mutating func shutdown()
    /// Seconds of media the run covered.
    func mediaSeconds(wallSeconds: Double) -> Double
}

/// The one loop every run uses: take the newest frame, perceive it, hand its result to control,
/// record; the clock policy says how frames arrive and when control runs.
struct FrameLoop<Policy: ClockPolicy> {
    let pipeline: Pipeline
    var policy: Policy

    mutating func run(stop: StopFlag, status: ((SessionStatus) -> Void)?, summary: inout SessionSummary)
        throws(SessionError)
    {
        let wallClock = SystemMonotonicClock()
        let wallStart = wallClock.now
        try policy.start(stop: stop)
        pipeline.haltOnStop(stop, runStart: wallStart)
        var stopped = false
        defer { if !stopped { policy.shutdown() } }
        let limits = pipeline.configuration
        var audioEnded = false
        var processed = 0
        frames: while !stop.isSet {
            pipeline.reportEvents(audioEnded: &audioEnded)
            if let limit = limits.maximumFrames, summary.frames >= limit { break }
            if let limit = limits.maximumDuration, policy.isPast(limit, frame: nil) { break }
            let waitStart = wallClock.now
            let frame: Frame
            switch try policy.nextFrame() {
            case .end: break frames
            case .idle:
                pipeline.monitor.recordAccounting(policy.accounting(processed: processed))
                continue
            case .frame(let next): frame = next
            }
            if let limit = limits.maximumDuration, policy.isPast(limit, frame: frame) { break }
            summary.timings.record(.source, milliseconds: wallClock.now.seconds(since: waitStart) * 1000)
            processed += 1
            tick(frame, stop: stop, processed: processed, status: status, summary: &summary)
        }
        summary.stoppedBySignal = stop.signalReceived != nil
        policy.shutdown()
        stopped = true
        summary.accounting = policy.accounting(processed: processed)
        pipeline.monitor.recordAccounting(summary.accounting)
        summary.wallSeconds = wallClock.now.seconds(since: wallStart)
        summary.mediaSeconds = policy.mediaSeconds(wallSeconds: summary.wallSeconds)
    }

    /// One frame: perceive, control, record.
    private mutating func tick(
        _ frame: Frame, stop: StopFlag, processed: Int, status: ((SessionStatus) -> Void)?,
        summary: inout SessionSummary
    ) {
        let wallClock = SystemMonotonicClock()
        let ms = { (from: MonotonicInstant, to: MonotonicInstant) in to.seconds(since: from) * 1000 }
        let arrived = wallClock.now
        let now = policy.begin(frame)
        let p = pipeline.perceive(frame, at: now, stop: stop)
        let perceived = wallClock.now
        // A frame's age means something only where its capture time is on the rig's clock, where
        // perception's now is that clock's too.
        let tracked = policy.capturesOnTheClock ? pipeline.rig.clock.now : now
        policy.control(ControlTarget(p), from: now, stop: stop)
        let done = wallClock.now
        let waited = p.waitedForLate * 1000
        let excluded = policy.waitIsArtificial ? waited : 0
        let pipelineMilliseconds = ms(arrived, done) - excluded
        if policy.capturesOnTheClock {
            summary.timings.record(.captureToReady, milliseconds: ms(frame.stamp.time, now))
            summary.timings.record(.captureToTracked, milliseconds: ms(frame.stamp.time, tracked))
        }
        summary.timings.record(.detect, milliseconds: ms(arrived, perceived) - waited)
        if waited > 0 { summary.timings.record(.lateWait, milliseconds: waited) }
        summary.timings.record(.control, milliseconds: ms(perceived, done))
        summary.timings.record(.pipeline, milliseconds: pipelineMilliseconds)
        let (media, wall) = policy.times(of: frame)
        let frameStage = policy.capturesOnTheClock ? ms(frame.stamp.time, tracked) : pipelineMilliseconds
        pipeline.finish(
            p, time: media, wallSeconds: wall, stages: [(Stage.frame.rawValue, frameStage)],
            accounting: policy.accounting(processed: processed), summary: &summary, status: status)
        summary.timings.record(.frame, milliseconds: ms(arrived, wallClock.now) - excluded)
    }
}
