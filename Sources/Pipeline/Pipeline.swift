import CameraOutputs
import Capture
import Control
import DockCore
import DockEngine
import Foundation
import Imaging
import Motion
import Tracking

/// A live view of a run, handed to the status line.
public struct SessionStatus: Sendable {
    public var frame: Int
    public var totalFrames: Int?
    /// Seconds from the first frame to this frame's capture.
    public var mediaTime: Double
    /// Seconds from the first frame to now, on the rig's clock.
    public var wallSeconds: Double
    public var pose: Vector3D
    public var selectedID: Int?
    public var inViewShare: Double?
    public var lastCenteringError: Double?
}

/// The one loop every run uses — `dockd --camera`, `dockd --demo`, `dockd --source`, the benchmark
/// and the soak: frame source → perception (detect → observations → tracker → selection →
/// speakers and lips → saliency → publish) → control (feeder at 10–30 Hz → `LocalDock.submit` →
/// motor controller). The rig supplies the source, the motors, the sound and the clock.
///
/// In real time (a camera, the demo, the soak) a capture thread posts frames to a newest-only
/// mailbox, perception runs on the caller's thread and control on a thread of its own, which sends
/// a command as soon as a newer frame's result exists (inside the 10–30 Hz contract) and keeps
/// calling at the feeder's hold interval while none comes. In lock-step (the benchmark) the same
/// steps run frame by frame in media time, so a run repeats exactly whatever the machine's speed.
public final class Pipeline: PipelineSession {
    public let configuration: SessionConfiguration
    public let sourceSummary: String
    public let detectorName: String
    public let detectorFallback: String?
    public let audioNote: String?
    /// What the zoom does this run, when there is a zoom to speak of or one was asked for.
    public var zoomNote: String? {
        switch (configuration.zoom, rig.zoom) {
        case (.off, nil): nil
        case (.off, let drive?): "zoom: off, the \(drive.name) is left where it is"
        case (.auto, let drive?):
            String(
                format: "zoom: auto, the %@ up to %.1f×, the face kept at %.2f of the picture's height",
                drive.name as NSString, drive.range.upperBound, configuration.zoomFaceShare)
        case (.auto, nil) where crop != nil && configuration.digitalFraming == nil:
            String(
                format:
                    "zoom: auto, but this camera has no zoom the engine can drive: the video out zooms digitally instead (up to %.1f×)",
                crop?.settings.maximumZoom ?? 1)
        case (.auto, nil):
            "zoom: auto asked for, but this camera has no zoom the engine can drive; it stays off (with --video-out the picture there would zoom digitally)"
        }
    }
    package let accessory: LocalDock
    /// The motor device driven (the simulated gimbal, or the dry run's name).
    public var motorName: String { rig.backend.name }
    public let monitor = SessionMonitor()
    /// Told when the motor device stops answering (false) and answers again (true): dockd's
    /// DockKit manager undocks and docks the accessory on it.
    public var deviceAvailability: (@Sendable (_ answering: Bool) -> Void)?
    public var progress: (@Sendable () -> Void)?
    /// Receives one line per camera or audio event (docked, undocked, audio stopped).
    public var log: (String) -> Void = { _ in }
    let rig: Rig
    let perception: PerceptionStep
    let controlFigures = Protected(ControlFigures())
    let zoomFigures = Protected(ZoomFigures())
    let zoomPresses = Protected<[Double]>([])
    static let heldZoomPresses = 8
    private var sinks: FrameSinks
    /// The virtual camera other programs read, and the crop digital framing shows on it.
    public let videoOut: VideoOutputSink?
    private var crop: CropFollower?
    private let videoOutErrors = Protected<[String]>([])
    /// What the control step said (a head running away), for the log.
    let controlNotices = Protected<[String]>([])
    /// From a stop request to the motors' halt, seconds (set by the halt itself).
    private let haltDelay = Protected<Double?>(nil)
    private let wallClock = SystemMonotonicClock()

    /// Builds the detectors first, then the rig (a live camera streams from the moment it is
    /// opened, so it opens once the pipeline is ready for its frames).
    package init(
        configuration: SessionConfiguration, videoOutSystem: any VideoDeviceSystem,
        makeRig: () throws(SessionError) -> Rig
    ) throws(SessionError) {
        self.configuration = configuration
        if configuration.profile.limitsHeap { Imaging.limitHeapRetention() }
        if let threads = configuration.openCVThreads ?? configuration.profile.openCVThreads {
            Imaging.setThreadCount(threads)
        }
        let built = try configuration.makeDetectionStage()
        Imaging.releaseFreeMemory()
        detectorFallback = built.fallback
        detectorName = built.stage.name
        rig = try makeRig()
        // Bodies and objects come back with the first frame 50 ms after their own (about what
        // SSDLite takes beside the faces here), live and in lock-step alike, so the benchmark
        // measures the schedule the service runs. Only a pass that overruns differs: lock-step
        // waits for it (a run repeats exactly), live takes it with the first frame after it.
        built.stage.slowDelivery = .after(seconds: Self.slowResultDelay, waits: rig.timing == .lockStep)
        sourceSummary = rig.sourceSummary
        let (lipReader, note) = configuration.makeLipReader(following: rig.sound.follower != nil, note: rig.sound.note)
        audioNote = note
        perception = PerceptionStep(
            detection: built.stage, follower: rig.sound.follower, lipReader: lipReader, audio: rig.sound.input,
            speakingThreshold: configuration.speakerPolicy.speakingThreshold)
        accessory = LocalDock(
            name: rig.backend.name, backend: rig.backend, clock: rig.clock,
            controlLaw: configuration.controlLaw.make(configuration.framing, pid: configuration.pid))
        try configuration.configureFraming(of: accessory)
        accessory.configurePresets(home: configuration.framing.home, privacy: configuration.privacyPose)
        accessory.battery.configure(configuration.batteryGauge)
        sinks = try FrameSinks(configuration: configuration, rig: rig, detectorName: built.stage.name)
        // No lens to zoom: with a virtual camera, zooming falls back to the digital kind there.
        let digitalZoom =
            configuration.zoom == .auto && rig.zoom == nil && configuration.videoOut != nil
            ? CropFollower.Settings() : nil
        crop = (configuration.digitalFraming ?? digitalZoom).map { CropFollower(settings: $0) }
        if configuration.zoom == .auto, rig.zoom != nil {
            // The zoom keys of a remote or the dock (DockKit's cameraZoom) step the lens.
            let presses = zoomPresses
            _ = accessory.events.subscribe { event in
                // Kept until a frame acts on them, the newest few only (none act while tracking is off).
                guard case .cameraZoom(let factor) = event else { return }
                presses.withLock {
                    $0.append(factor)
                    if $0.count > Self.heldZoomPresses { $0.removeFirst($0.count - Self.heldZoomPresses) }
                }
            }
        }
        let errors = videoOutErrors
        do {
            videoOut = try configuration.videoOut?.open(
                cameraSize: rig.pictureSize, frameRate: rig.nominalFrameRate, clock: rig.clock,
                system: videoOutSystem
            ) { line in errors.withLock { $0.append(line) } }
        } catch { throw SessionError(error.description) }
    }

    public var totalFrames: Int? { rig.totalFrames }

    /// Subscribes `observer` to every frame this pipeline processes (before `run`).
    package func subscribe(_ observer: any FrameObserver) { sinks.observers.append(observer) }

    /// Those subscribed, in order.
    package var observers: [any FrameObserver] { sinks.observers }

    /// How late the slow detectors' results reach the tracker, seconds.
    static let slowResultDelay = 0.05

    /// Runs until the source ends, a limit is reached or `stop` is set. Leaves the motors stopped.
    public func run(stop: StopFlag = StopFlag(), status: ((SessionStatus) -> Void)? = nil) throws(SessionError)
        -> SessionSummary
    {
        var summary = SessionSummary()
        summary.detectorName = detectorName
        summary.outputVideo = configuration.outputVideo
        summary.outputVideoKeepBytes = configuration.outputVideoKeepBytes
        summary.tracePath = configuration.tracePath
        summary.timings = StageTimings(capacity: configuration.timingWindow)
        let cpuStart = SessionSummary.processCPUSeconds()
        let runStart = wallClock.now
        defer {
            sinks.close()
            perception.detection.settle()
            videoOut?.finish()
        }
        switch rig.timing {
        case .lockStep:
            var loop = FrameLoop(pipeline: self, policy: try LockStepPolicy(pipeline: self))
            try loop.run(stop: stop, status: status, summary: &summary)
        case .realTime:
            var loop = FrameLoop(pipeline: self, policy: try RealTimePolicy(pipeline: self))
            try loop.run(stop: stop, status: status, summary: &summary)
        }
        summary.cpuSeconds = SessionSummary.processCPUSeconds() - cpuStart
        // Motors cannot move before the run starts: a stop asked for during start-up counts from then.
        summary.motorStopDelay =
            haltDelay.withLock { $0 } ?? stop.setAt.map { wallClock.now.seconds(since: max($0, runStart)) }
        let figures = controlFigures.withLock { $0 }
        summary.trackCalls = accessory.trackCallCount
        summary.rateContractErrors = monitor.counters().rateContractErrors
        summary.runawayStop = figures.runawayStop
        if let drive = rig.zoom {
            let zoom = zoomFigures.withLock { $0 }
            summary.zoom = SessionSummary.ZoomReport(
                mode: configuration.zoom, moves: zoom.moves, failures: zoom.failures, lastFailure: zoom.lastFailure,
                finalFactor: drive.factor(at: rig.clock.now))
        }
        for latency in figures.commandLatencies.samples[Stage.captureToCommand.rawValue] ?? [] {
            summary.timings.record(.captureToCommand, milliseconds: latency)
        }
        if let counts = perception.audio?.blockCounts {
            (summary.audioBlocks, summary.audioBlocksDropped) = counts
            summary.audioRestarts = perception.audioRestarts
        }
        summary.channelOrder = perception.follower?.channelOrder
        summary.finalCommand = accessory.motors.lastCommand
        summary.deadmanStops = accessory.motors.deadmanStops
        summary.silentMotorStops = accessory.motors.silenceStops
        summary.commandLatency = (
            accessory.motors.backend.capabilities.commandLatency, accessory.motors.measuredLatency,
            accessory.motors.latencySamples
        )
        sinks.finish(summary: &summary)
        videoOut?.finish()
        if let figures = videoOut?.current {
            for latency in figures.latencies { summary.timings.record(.captureToOutput, milliseconds: latency) }
            summary.videoOutFrames = (figures.written, figures.replaced, figures.failed)
            summary.videoOutPlaceholders = figures.placeholders
        }
        return summary
    }

    /// A stop request halts the motors at once, from the thread that asks (the signal thread),
    /// not after the frame in progress; the commands that follow are refused.
    func haltOnStop(_ stop: StopFlag, runStart: MonotonicInstant) {
        let motors = accessory.motors
        let clock = rig.clock
        let haltDelay = self.haltDelay
        stop.whenSet { setAt in
            motors.halt(at: clock.now)
            haltDelay.withLock { $0 = SystemMonotonicClock().now.seconds(since: max(setAt, runStart)) }
        }
    }

    /// A control step on the accessory, for whichever thread drives control.
    func makeControlStep() throws(SessionError) -> ControlStep {
        do {
            return ControlStep(
                feeder: try TrackFeeder(rate: configuration.trackRate), accessory: accessory, monitor: monitor,
                figures: controlFigures, notices: controlNotices, mount: configuration.mount,
                zoom: makeZoomStep())
        } catch {
            throw SessionError("--rate: \(error)", kind: .setup)
        }
    }

    /// The zoom's step when the engine drives a zoom this rig has (`--zoom auto`).
    private func makeZoomStep() -> ZoomStep? {
        guard configuration.zoom == .auto, let drive = rig.zoom else { return nil }
        return ZoomStep(
            drive: drive, faceShare: configuration.zoomFaceShare, widest: rig.camera.intrinsics, figures: zoomFigures,
            presses: zoomPresses)
    }

    /// Perceives one frame at `now` on the rig's clock and publishes its tracking state.
    func perceive(_ frame: Frame, at now: MonotonicInstant, stop: StopFlag) -> FramePerception {
        var frame = frame
        // A live head's pose at the frame's capture, from its feedback.
        if frame.headPose == nil { frame.headPose = rig.backend.motionState(at: frame.stamp.time).angularPositions }
        var p = perception.perceive(
            frame, camera: frame.camera ?? rig.camera, locked: accessory.lockedSubjects, now: now,
            cancelled: { stop.isSet })
        // Stamped with the frame's capture time, not the time tracking finished.
        accessory.publishTracking(
            perception.assessments(of: p),
            time: Date(timeIntervalSinceNow: -rig.clock.now.seconds(since: frame.stamp.time)))
        if crop != nil {
            let shown = crop?.update(
                faces: p.framed.map(\.rect), time: frame.stamp.time.seconds,
                placementX: accessory.framingMode.framingPoint.x,
                region: FramingGeometry.region(fromUpperLeft: accessory.regionOfInterest) ?? FramingGeometry.fullFrame)
            videoOut?.show(shown)
            monitor.recordCrop(shown)
            p.crop = shown
        }
        return p
    }

    /// After a frame is processed: the sinks, the monitor, the status line.
    func finish(
        _ p: FramePerception, time: Double, wallSeconds: Double, stages: [(String, Double)],
        accounting: FrameAccounting,
        summary: inout SessionSummary, status: ((SessionStatus) -> Void)?
    ) {
        summary.detectorFailures += p.detectorFailures
        if p.bodiesAsked { summary.bodyRuns += 1 }
        if p.heardSpeaker { summary.framesWithSpeaker += 1 }
        sinks.record(p, time: time, command: controlFigures.withLock { $0.lastCommand }, summary: &summary)
        // A sink that fell behind or stopped (a slow or full disk) is said when it happens.
        for line in sinks.takeNotices() { log(line) }
        summary.frames += 1
        monitor.recordFrame(
            SessionMonitor.Snapshot(
                frame: p.frame, detections: p.detections.map(\.rect),
                subjects: p.subjects.map { ($0.id, $0.uuid, $0.rect) }, framed: p.framed.map(\.uuid)),
            stages: stages, accounting: accounting, detectorFailures: p.detectorFailures)
        status?(sinks.status(p, frames: summary.frames, time: time, wallSeconds: wallSeconds))
    }

    /// Logs camera events and an audio source that ended (once).
    func reportEvents(audioEnded: inout Bool) {
        for event in rig.events.withLock({ e in
            defer { e.removeAll() }
            return e
        }) {
            switch event {
            case .docked(let summary): log("camera docked: \(summary)")
            case .undocked(let reason): log("camera undocked: \(reason); waiting for it to come back")
            }
        }
        for line in videoOutErrors.withLock({ e in
            defer { e.removeAll() }
            return e
        }) { log(line) }
        for line in (perception.audio?.takeProblems() ?? []) + perception.takeFindings() { log(line) }
        for line in controlNotices.withLock({ n in
            defer { n.removeAll() }
            return n
        }) {
            log(line)
        }
        if !audioEnded, let reason = perception.audio?.endedReason {
            audioEnded = true
            log("audio stopped, following speakers by vision alone: \(reason)")
        }
    }
}

extension ControlTarget {
    init(_ p: FramePerception) {
        self.init(framed: p.framed, sound: p.sound, camera: p.camera, stamp: p.frame.stamp, pose: p.pose)
    }
}
