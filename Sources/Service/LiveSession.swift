import Audio
import Bench
import Capture
import DockCore
import DockKit
import Foundation
import Motion
import Tracking
import Vision

/// The pipeline on a live V4L2 camera, in wall time, on three threads:
/// - capture: the camera (reopened when it comes back after an unplug) into a newest-only mailbox;
/// - audio (with `--audio-device`): the microphones into a queue, every block kept in order;
/// - detection (the caller's thread): newest frame → detector → observations → tracker, and
///   the sound heard so far → who speaks → whom to frame;
/// - control: `track` calls at the feeder's fixed rate from the tracker's latest state, plus the
///   deadman, so commands keep their rate however long detection takes.
public final class LiveSession: PipelineSession {
    public let configuration: SessionConfiguration
    public let sourceSummary: String
    public let detectorName: String
    public let detectorFallback: String?
    /// The motor device driven (or the dry run's name).
    public let motorName: String
    private let detection: DetectionStage
    public let accessory: DockAccessory
    public let monitor = SessionMonitor()
    public var manager: DockAccessoryManager?
    private let capture: CaptureThread
    private let cancellation: CaptureCancellation
    private let intrinsics: CameraIntrinsicsSource
    private let information: SharedCameraInformation
    private let clock = SystemMonotonicClock()
    private let events = Protected<[CameraEvent]>([])
    /// The microphones, when they opened; `audioNote` says what was heard with, or why not.
    private let audio: AudioCaptureThread?
    private let follower: SpeakerFollower?
    private let lipReader: LipReader?
    public let audioNote: String?
    /// Called by the control thread each time round (set before `run`).
    public var progress: (@Sendable () -> Void)?

    /// What the detection thread shares with the control thread.
    private struct Shared: Sendable {
        var tracker = SubjectTracker()
        var selector = SubjectSelector()
        /// Whom to frame when speakers decide (a group, or one person); nil = the selector's choice.
        var framed: [UUID]?
        /// Someone talking where nobody is tracked: a target at the voice, with its frame's stamp.
        var sound: (rect: NormalizedRect, stamp: FrameStamp)?
        var camera: CameraInformation?
        var trackCalls = 0
        var rateErrors = 0
        /// Capture → command latency per track call, bounded like every stage timing.
        var commandLatencies = StageTimings()
    }
    private let shared = Protected(Shared())

    public init(configuration: SessionConfiguration, system: any VideoDeviceSystem = LinuxVideoDeviceSystem()) throws(SessionError) {
        guard case .camera(let path) = configuration.source else { throw SessionError("LiveSession needs a camera source") }
        if configuration.resolvedGimbal == .sim {
            throw SessionError("--gimbal sim turns a virtual camera inside a recording and cannot move a real camera; name a motor device or use --gimbal none")
        }
        self.configuration = configuration
        var calibration: CameraCalibration?
        if let file = configuration.calibrationFile {
            do { calibration = try CameraCalibration.load(file) } catch { throw SessionError(error.message) }
        }
        intrinsics = CameraIntrinsicsSource(calibration: calibration, fieldOfView: configuration.sourceFieldOfView)

        var request = CaptureRequest()
        request.size = configuration.captureSize
        request.frameRate = configuration.captureFrameRate
        // Decode no larger than the detector can use (it shrinks to detectorInputWidth anyway).
        let wanted = max(2 * configuration.detectorInputWidth, 640)
        request.decodeScale = DecodeScale.allCases.reversed().first { $0.scaled(configuration.captureSize.width) >= wanted } ?? .full

        // Opened here first, so a missing or unusable camera is refused before anything moves.
        let camera: ReconnectingCamera
        let events = self.events
        do {
            camera = try ReconnectingCamera(path: path, request: request, system: system, intrinsics: intrinsics) { event in
                events.withLock { $0.append(event) }
            }
        } catch {
            throw SessionError(error.description)
        }
        sourceSummary = camera.summary
        cancellation = camera.cancellation
        information = camera.information
        let built = try configuration.makeDetectionStage()
        detection = built.stage
        detectorFallback = built.fallback
        detectorName = detection.name
        let backend: any MotorBackend
        if case .device(let spec) = configuration.resolvedGimbal {
            backend = try spec.connect(camera: path) { event in
                switch event {
                case .connected(let name): events.withLock { $0.append(.docked("gimbal \(name) reconnected")) }
                case .disconnected(let name): events.withLock { $0.append(.undocked("gimbal \(name) disconnected")) }
                }
            }
        } else {
            backend = NullMotorBackend()
        }
        motorName = backend.name
        accessory = DockAccessory(name: backend.name, backend: backend, clock: clock,
                                  controlLaw: configuration.controlLaw.make(configuration.framing, pid: configuration.pid))
        try configuration.configureFraming(of: accessory)
        // The microphones: opened here so that a missing or unusable one is reported at start;
        // without them the session tracks on vision alone.
        var microphones: ALSACaptureSource?
        var follower: SpeakerFollower?
        var audioNote: String?
        if configuration.useAudio, let device = configuration.audioDevice {
            do throws(AudioError) {
                let source = try ALSACaptureSource(device: device, configuration: configuration.audioConfiguration, clock: clock)
                let analyzer = try SpeechAnalyzer(sampleRate: source.sampleRate, channelCount: source.channelCount, array: configuration.microphones)
                follower = SpeakerFollower(analyzer: analyzer, policy: configuration.speakerPolicy)
                microphones = source
                audioNote = "audio: \(source.summary)"
                    + (source.channelCount == 1 ? SessionConfiguration.monoNote : "")
            } catch {
                audioNote = "audio off, tracking on vision alone: \(error.message)"
            }
        }
        self.follower = follower
        (lipReader, self.audioNote) = configuration.makeLipReader(following: follower != nil, note: audioNote)
        // Last, once nothing else can fail: a thread started earlier would outlive a failed init.
        let handOver = UncheckedBox(camera)
        capture = CaptureThread(name: "opendock.capture") { handOver.value }
        if let microphones {
            let heard = UncheckedBox(microphones)
            audio = AudioCaptureThread(name: "opendock.audio") { heard.value }
        } else {
            audio = nil
        }
    }

    /// A session dropped without `run` (or after) leaves no capture thread behind.
    deinit {
        cancellation.cancel()
        capture.stop()
        audio?.stop()
    }

    /// Receives one line per camera event (docked, undocked), on the detection thread.
    public var log: (String) -> Void = { _ in }

    private func reportCameraEvents() {
        for event in events.withLock({ e in defer { e.removeAll() }; return e }) {
            switch event {
            case .docked(let summary): log("camera docked: \(summary)")
            case .undocked(let reason): log("camera undocked: \(reason); waiting for it to come back")
            }
        }
    }

    public func run(stop: StopFlag, status: ((SessionStatus) -> Void)?) throws(SessionError) -> SessionSummary {
        var summary = SessionSummary()
        summary.detectorName = detectorName
        let start = clock.now
        let cpuStart = SessionSummary.processCPUSeconds()
        var feeder: TrackFeeder
        do { feeder = try TrackFeeder(rate: configuration.trackRate) } catch { throw SessionError("--rate: \(error)") }

        let controlDone = Protected(false)
        let control = ControlLoop(accessory: accessory, shared: shared, events: events, clock: clock, stop: stop, progress: progress,
                                  monitor: monitor, manager: manager)
        let controlThread = Thread { [feeder] in
            var schedule = feeder
            control.run(feeder: &schedule)
            controlDone.withLock { $0 = true }
        }
        controlThread.name = "opendock.control"
        controlThread.start()

        // Motors first: stop the control thread, command a stop, then let capture wind down.
        let shutDown = Protected(false)
        // A stop request halts the motors from the signal thread itself, not after the frame in progress.
        let haltDelay = Protected<Double?>(nil)
        let motors = accessory.motors, clock = self.clock
        stop.whenSet { setAt in
            motors.halt(at: clock.now)
            haltDelay.withLock { $0 = clock.now.seconds(since: max(setAt, start)) }
        }
        func shutdown() -> Double? {
            guard !shutDown.withLock({ done in defer { done = true }; return done }) else { return nil }
            let signalled = stop.setAt
            stop.set()
            cancellation.cancel()
            capture.stop()
            audio?.stop()
            while !controlDone.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.005) }
            accessory.stopMotors(at: clock.now)
            // Motors cannot move before the run starts: a signal during start-up counts from then.
            let delay = signalled.map { (haltDelay.withLock { $0 }) ?? clock.now.seconds(since: max($0, start)) }
            // The capture thread closes the camera when it ends; give it a second.
            let deadline = clock.now.advanced(bySeconds: 1)
            while !capture.isFinished && clock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
            return delay
        }
        defer { _ = shutdown() }

        var follower = self.follower
        var audioEnded = false
        while !stop.isSet {
            reportCameraEvents()
            if let audio, !audioEnded, audio.ended.closed {
                audioEnded = true
                log("audio stopped, following speakers by vision alone: \(audio.ended.reason?.message ?? "the device ended")")
            }
            if let limit = configuration.maximumFrames, summary.frames >= limit { break }
            if let limit = configuration.maximumDuration, clock.now.seconds(since: start) > limit { break }
            let frame: Frame
            do {
                guard let next = try capture.mailbox.take(timeout: 0.25) else {
                    if capture.mailbox.closed { break }
                    continue
                }
                frame = next
            } catch {
                throw SessionError(error.message)
            }
            let begin = clock.now
            summary.timings.record("capture→ready", milliseconds: begin.seconds(since: frame.stamp.time) * 1000)
            let found = detection.detect(frame, tracking: shared.withLock { $0.tracker.focus }, cancelled: { stop.isSet })
            summary.detectorFailures += found.errors.count
            let detections = found.detections
            let observations = ObservationMapper().observations(from: detections)
            var camera = information.current ?? intrinsics.cameraInformation(size: frame.size)
            if camera.referenceDimensions != frame.size { camera = intrinsics.cameraInformation(size: frame.size) }
            let locked = accessory.lockedSubjects
            let (selected, subjects) = shared.withLock { s -> (TrackedSubject?, [TrackedSubject]) in
                s.camera = camera
                s.tracker.update(with: observations, stamp: frame.stamp)
                s.selector.locked = locked
                let subjects = s.tracker.confirmedSubjects
                return (s.selector.select(from: subjects), subjects)
            }
            // Who speaks decides whom to frame in automatic mode; a lock by the client wins.
            var speaking: [UUID: Double] = [:]
            if var listening = follower, let audio {
                listening.hear(audio.drain())
                if listening.heardSpeech(within: 1, of: clock.now) { lipReader?.read(frame, detections: detections, subjects: subjects) }
                if locked.isEmpty {
                    let yaw = accessory.motors.backend.motionState(at: frame.stamp.time).angularPositions.y
                    let heard = listening.choose(from: subjects, fallback: selected, camera: camera, yaw: yaw,
                                                 lips: lipReader?.activity(at: frame.stamp.time) ?? [:], at: clock.now)
                    speaking = heard.speaking
                    if speaking.values.contains(where: { $0 >= configuration.speakerPolicy.speakingThreshold }) { summary.framesWithSpeaker += 1 }
                    shared.withLock { s in
                        s.framed = heard.chosen.map(\.uuid)
                        s.sound = heard.sound.map { ($0, frame.stamp) }
                    }
                } else {
                    // The client's lock frames, through the selector.
                    shared.withLock { s in
                        s.framed = nil
                        s.sound = nil
                    }
                }
                follower = listening
            }
            var assessments = Saliency.assess(subjects, at: frame.stamp.time)
            for i in assessments.indices { assessments[i].speakingConfidence = speaking[assessments[i].uuid] }
            // Stamped with the frame's capture time, not the time tracking finished.
            let captured = Date(timeIntervalSinceNow: -clock.now.seconds(since: frame.stamp.time))
            accessory.publishTracking(assessments, time: captured)
            let end = clock.now
            summary.timings.record("detect+track", milliseconds: end.seconds(since: begin) * 1000)
            summary.timings.record("capture→tracked", milliseconds: end.seconds(since: frame.stamp.time) * 1000)
            summary.frames += 1
            let framed = shared.withLock { s in s.framed ?? s.selector.selectedUUID.map { [$0] } ?? [] }
            monitor.recordFrame(SessionMonitor.Snapshot(frame: frame, detections: detections.map(\.rect), subjects: subjects.map { ($0.id, $0.uuid, $0.rect) }, framed: framed),
                                stages: [(MetricsExposition.frameStage, end.seconds(since: frame.stamp.time) * 1000),
                                         ("detect+track", end.seconds(since: begin) * 1000)],
                                dropped: capture.mailbox.replaced, detectorFailures: found.errors.count)
            status?(SessionStatus(frame: summary.frames, totalFrames: configuration.maximumFrames, mediaTime: end.seconds(since: start),
                                  wallSeconds: end.seconds(since: start), pose: Vector3D(), selectedID: selected?.id,
                                  inViewShare: nil, lastCenteringError: nil))
        }

        summary.motorStopDelay = shutdown()
        let totals = shared.withLock { $0 }
        summary.trackCalls = totals.trackCalls
        summary.rateContractErrors = totals.rateErrors
        for latency in totals.commandLatencies.samples["capture→command"] ?? [] {
            summary.timings.record("capture→command", milliseconds: latency)
        }
        summary.droppedFrames = capture.mailbox.replaced
        if let audio {
            summary.audioBlocks = audio.received
            summary.audioBlocksDropped = audio.dropped
            summary.audioRestarts = follower?.audioRestarts ?? 0
        }
        summary.wallSeconds = clock.now.seconds(since: start)
        summary.cpuSeconds = SessionSummary.processCPUSeconds() - cpuStart
        summary.mediaSeconds = summary.wallSeconds
        summary.finalCommand = accessory.motors.lastCommand
        summary.stoppedBySignal = stop.signalReceived != nil
        summary.deadmanStops = accessory.motors.deadmanStops
        summary.silentMotorStops = accessory.motors.silenceStops
        return summary
    }

    /// The control thread's loop: sleeps to each tick of the feeder's schedule.
    private struct ControlLoop: @unchecked Sendable {
        let accessory: DockAccessory
        let shared: Protected<Shared>
        let events: Protected<[CameraEvent]>
        let clock: SystemMonotonicClock
        let stop: StopFlag
        let progress: (@Sendable () -> Void)?
        let monitor: SessionMonitor
        let manager: DockAccessoryManager?

        func run(feeder: inout TrackFeeder) {
            var silent = false
            while !stop.isSet {
                progress?()
                // A gimbal that stops answering is stopped by the motor controller; say so once.
                if accessory.motors.isDeviceSilent != silent {
                    silent.toggle()
                    let name = accessory.motors.backend.name
                    events.withLock {
                        $0.append(silent ? .undocked("gimbal \(name) stopped answering; motors stopped until it answers")
                                         : .docked("gimbal \(name) answering again"))
                    }
                    if silent { manager?.undock(accessory) } else { manager?.dock(accessory) }
                }
                let now = clock.now
                // With system tracking off the client drives the motors; the pipeline only watches.
                if feeder.isDue(at: now), accessory.isSystemTrackingEnabled {
                    let (observations, camera) = shared.withLock { s -> ([Observation], CameraInformation?) in
                        // Someone talking where nobody is tracked: turn towards the voice.
                        if let sound = s.sound {
                            return ([Observation(identifier: -1, kind: .humanBody, rect: sound.rect, confidence: 1, stamp: sound.stamp)], s.camera)
                        }
                        let confirmed = s.tracker.confirmedSubjects
                        let framed = s.framed.map { uuids in uuids.compactMap { uuid in confirmed.first { $0.uuid == uuid } } }
                            ?? confirmed.filter { $0.uuid == s.selector.selectedUUID }
                        return (feeder.observations(for: framed, at: now), s.camera)
                    }
                    if let camera {
                        do {
                            try accessory.submit(observations, camera: camera, at: now)
                            shared.withLock { s in
                                s.trackCalls += 1
                                if let o = observations.first { s.commandLatencies.record("capture→command", milliseconds: clock.now.seconds(since: o.stamp.time) * 1000) }
                            }
                            monitor.recordTrackCall(observationAge: observations.first.map { clock.now.seconds(since: $0.stamp.time) * 1000 } ?? 0)
                        } catch {
                            // A silent gimbal is reported above, not as a broken rate contract.
                            if error != .notConnected {
                                shared.withLock { $0.rateErrors += 1 }
                                monitor.recordRateContractError()
                            }
                        }
                    }
                }
                accessory.service(at: now)
                let wait = (feeder.nextDue ?? now).seconds(since: clock.now)
                Thread.sleep(forTimeInterval: min(max(wait, 0.0005), 0.05))
            }
        }
    }
}

/// Moves a value built on one thread to the thread that will own it from then on.
private final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
