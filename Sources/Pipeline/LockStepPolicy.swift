import DockCore
import Foundation

/// Lock-step: one thread, frame by frame in media time. Each frame is perceived at its own
/// time, then the control ticks run from it to the next frame as the feeder paces them,
/// advancing the simulated gimbal. The same scene and seed give the same run.
struct LockStepPolicy: ClockPolicy {
    let pipeline: Pipeline
    private var source: (any FrameSource)?
    private var control: ControlStep
    private var delivered = 0
    private var last = MonotonicInstant.zero
    /// A thinned source's frames come at its rate: control runs until the next of them.
    private let period: Double
    private let wallClock = SystemMonotonicClock()
    private var wallStart = MonotonicInstant.zero

    init(pipeline: Pipeline) throws(SessionError) {
        self.pipeline = pipeline
        control = try pipeline.makeControlStep()
        let rate = min(pipeline.rig.nominalFrameRate, pipeline.configuration.profile.perceptionRate ?? .infinity)
        period = 1 / max(rate, 1)
    }

    var capturesOnTheClock: Bool { false }
    var waitIsArtificial: Bool { true }

    mutating func start(stop: StopFlag) throws(SessionError) {
        wallStart = wallClock.now
        do { source = try pipeline.rig.makeSource() } catch { throw SessionError(error.message) }
    }

    func isPast(_ seconds: Double, frame: Frame?) -> Bool { frame.map { $0.stamp.time.seconds > seconds } ?? false }

    mutating func nextFrame() throws(SessionError) -> FrameArrival {
        guard let source else { return .end }
        let next: Frame?
        do { next = try source.nextFrame() } catch { throw SessionError(error.message) }
        guard let frame = next else { return .end }
        delivered += 1
        return .frame(frame)
    }

    mutating func begin(_ frame: Frame) -> MonotonicInstant {
        last = frame.stamp.time
        pipeline.rig.mediaClock?.mark(last)
        return last
    }

    /// Control ticks from a frame to the next, as the live control thread runs them: the fresh
    /// result at once (credit allowing), then hold calls if the next frame is slow to come.
    mutating func control(_ target: ControlTarget, from now: MonotonicInstant, stop: StopFlag) {
        let nextFrame = now.advanced(bySeconds: period)
        var tick = now
        while tick < nextFrame {
            pipeline.rig.gimbal?.advance(to: tick)
            control.tick(at: tick, target: target, stopping: stop.isSet)
            guard let due = control.nextDue(for: target), due > tick else { break }
            tick = due
        }
        pipeline.progress?()
    }

    func times(of frame: Frame) -> (media: Double, wall: Double) {
        (frame.stamp.time.seconds, wallClock.now.seconds(since: wallStart))
    }

    func accounting(processed: Int) -> FrameAccounting {
        var accounting = FrameAccounting()
        accounting.delivered = delivered
        accounting.processed = processed
        accounting.source = source?.counts ?? SourceCounts()
        return accounting
    }

    mutating func shutdown() { pipeline.accessory.stopMotors(at: last) }

    func mediaSeconds(wallSeconds: Double) -> Double { last.seconds }
}
