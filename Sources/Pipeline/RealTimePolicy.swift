import Capture
import DockCore
import Foundation

/// Real time on three threads: capture (the rig's source into a newest-only mailbox),
/// perception (the caller's thread) and control (its own thread, woken by each new result and
/// by the feeder's hold interval), so a result goes out as soon as it exists and commands keep
/// coming however long a frame takes.
struct RealTimePolicy: ClockPolicy {
    let pipeline: Pipeline
    private let clock: any MonotonicClock
    private var start = MonotonicInstant.zero
    private var origin: MonotonicInstant?
    private let board = TargetBoard()
    private var controlThread: ControlThread?
    private var capture: CaptureThread?
    private let step: ControlStep

    init(pipeline: Pipeline) throws(SessionError) {
        self.pipeline = pipeline
        clock = pipeline.rig.clock
        step = try pipeline.makeControlStep()
    }

    var capturesOnTheClock: Bool { true }
    var waitIsArtificial: Bool { false }

    /// Streaming starts here, once the detectors exist and control is ready for results.
    mutating func start(stop: StopFlag) throws(SessionError) {
        let rig = pipeline.rig
        // A simulation's media time starts now; a camera's clock is the system's.
        rig.mediaClock?.mark(.zero)
        start = clock.now
        controlThread = ControlThread(step: step, pipeline: pipeline, board: board, stop: stop)
        capture = CaptureThread(
            name: "opendock.capture", makeSource: rig.makeSource, onFrame: pipeline.videoOut.map { $0.post })
    }

    func isPast(_ seconds: Double, frame: Frame?) -> Bool {
        frame == nil && clock.now.seconds(since: start) > seconds
    }

    mutating func nextFrame() throws(SessionError) -> FrameArrival {
        guard let capture else { return .end }
        let taken: Frame?
        do { taken = try capture.mailbox.take(timeout: 0.25) } catch { throw SessionError(error.message) }
        if let taken { return .frame(taken) }
        return capture.mailbox.closed ? .end : .idle
    }

    mutating func begin(_ frame: Frame) -> MonotonicInstant {
        if origin == nil { origin = frame.stamp.time }
        return clock.now
    }

    mutating func control(_ target: ControlTarget, from now: MonotonicInstant, stop: StopFlag) {
        board.publish(target)
    }

    func times(of frame: Frame) -> (media: Double, wall: Double) {
        let origin = origin ?? frame.stamp.time
        return (frame.stamp.time.seconds(since: origin), clock.now.seconds(since: origin))
    }

    func accounting(processed: Int) -> FrameAccounting {
        var accounting = FrameAccounting()
        accounting.processed = processed
        if let capture {
            accounting.delivered = capture.mailbox.posted
            accounting.replacedByNewer = capture.mailbox.replaced
            accounting.source = capture.sourceCounts
        }
        return accounting
    }

    mutating func shutdown() {
        pipeline.rig.cancel()
        capture?.stop()
        controlThread?.finish()
        pipeline.accessory.stopMotors(at: clock.now)
        // The capture thread closes the camera when it ends; give it a second.
        let wallClock = SystemMonotonicClock()
        let deadline = wallClock.now.advanced(bySeconds: 1)
        while let capture, !capture.isFinished, wallClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        controlThread = nil
    }

    func mediaSeconds(wallSeconds: Double) -> Double { wallSeconds }
}
