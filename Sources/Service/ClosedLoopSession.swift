import Audio
import Bench
import Capture
import DockCore
import DockKit
import Foundation
import Imaging
import Motion
import Simulation
import Tracking
import Vision

/// A live view of a run, handed to the status line.
public struct SessionStatus: Sendable {
    public var frame: Int
    public var totalFrames: Int?
    public var mediaTime: Double
    public var wallSeconds: Double
    public var pose: Vector3D
    public var selectedID: Int?
    public var inViewShare: Double?
    public var lastCenteringError: Double?
}

/// One run of the whole pipeline: source → (virtual camera at the gimbal's pose) → detector →
/// observations → tracker → selection → TrackFeeder at a fixed rate → DockAccessory.track →
/// control law → motors. With the simulated gimbal the loop is closed: the next view is rendered
/// from the pose the commands produced.
///
/// Time is the source's media time: the gimbal, the feeder's schedule and the controller all run
/// on it, so a run repeats exactly whatever the machine's speed. Wall time is measured per stage
/// for the latency report, and `realTime` paces frames to the media clock.
public final class ClosedLoopSession: PipelineSession {
    public let configuration: SessionConfiguration
    public let detectorName: String
    /// Set when the requested detector was replaced by a fallback; says why.
    public let detectorFallback: String?
    /// What the microphones give: the source, or why the run goes on by vision alone.
    public private(set) var audioNote: String?
    public var progress: (@Sendable () -> Void)?
    private var follower: SpeakerFollower?
    private var lipReader: LipReader?
    /// A generated scene heard by microphones on the camera: rendered frame by frame with the
    /// head's yaw, up to `soundRendered` samples so far; the yaw at the last frame rendered.
    private var sceneSound: SceneSound?
    private var soundRendered = 0
    private var soundYaw: (time: Double, yaw: Double)?
    public let sourceSummary: String

    private let source: any FrameSource
    private let scene: GeneratedScene?
    /// Where the people really are: the generated scene's exact truth or a scene file's labels.
    private let truth: (any GroundTruthProvider)?
    private let detection: DetectionStage
    private let virtualCamera: VirtualCamera?
    private let gimbal: SimulatedGimbal?
    /// The accessory the loop drives (its `trackingStates` report what the loop tracks).
    public let accessory: DockAccessory
    public let monitor = SessionMonitor()
    public var manager: DockAccessoryManager?
    /// Media time for everything outside the loop: the stop request, the control API.
    private let mediaClock = MediaClock()
    private let camera: CameraInformation
    private var feeder: TrackFeeder
    private var tracker = SubjectTracker()
    private var selector = SubjectSelector()
    private let mapper = ObservationMapper()
    private var writer: VideoWriter?
    private let wallClock = SystemMonotonicClock()

    /// `initialPose` starts the simulated gimbal elsewhere than straight ahead.
    public init(configuration: SessionConfiguration, initialPose: Vector3D = Vector3D()) throws(SessionError) {
        self.configuration = configuration
        if let threads = configuration.openCVThreads { Imaging.setThreadCount(threads) }

        // Source: the generated demo scene or a recording.
        var worldIntrinsics: CameraIntrinsics
        switch configuration.source {
        case .demo:
            let photos = ScenePhotos(mediaDirectory: configuration.resolvedMediaDirectory)
            do {
                let scene = try GeneratedScene(photos: photos, configuration: configuration.scene)
                self.scene = scene
                source = scene
                worldIntrinsics = scene.worldIntrinsics
            } catch {
                throw SessionError("cannot build the demo scene: \(error.message)")
            }
        case .file(let path):
            scene = nil
            // Without a gimbal the detector never needs more than about 640 pixels across.
            let scale: DecodeScale = configuration.resolvedGimbal == .dryRun ? Self.decodeScale(forWidthAtLeast: 640, path: path) : .full
            do {
                let file = try VideoFileSource(path: path, scale: scale)
                source = file
                worldIntrinsics = CameraIntrinsics(horizontalFieldOfView: configuration.resolvedFieldOfView * .pi / 180, size: file.size)
            } catch {
                throw SessionError(error.message)
            }
        case .camera:
            throw SessionError("a live camera runs in LiveSession, not in the closed-loop simulation")
        }
        sourceSummary = source.summary
        truth = scene ?? configuration.labelledTruth
        if configuration.useAudio {
            do throws(AudioError) {
                var clip: AudioClip?
                if let file = configuration.audioFile {
                    clip = try WAVFile.read(path: file)
                } else if let scene, scene.configuration.people.contains(where: { !$0.speaking.isEmpty }) {
                    if configuration.microphones.mounting == .camera {
                        let sound = try SceneSound(scene.configuration)
                        let analyzer = try SpeechAnalyzer(sampleRate: sound.sampleRate, channelCount: 2, array: configuration.microphones)
                        follower = SpeakerFollower(analyzer: analyzer, policy: configuration.speakerPolicy)
                        sceneSound = sound
                        audioNote = String(format: "audio: 2 channels at %.0f Hz, %.1f s, microphones on the camera (heard as the head turns)",
                                           sound.sampleRate, Double(sound.frameCount) / sound.sampleRate)
                    } else {
                        clip = try SceneAudio.synthesize(scene.configuration, array: configuration.microphones)
                    }
                }
                if let clip {
                    follower = try SpeakerFollower(clip: clip, array: configuration.microphones, policy: configuration.speakerPolicy)
                    audioNote = String(format: "audio: %d channel%@ at %.0f Hz, %.1f s%@", clip.channels.count, clip.channels.count == 1 ? "" : "s",
                                       clip.sampleRate, clip.duration, clip.isStereo ? "" : SessionConfiguration.monoNote)
                }
            } catch {
                audioNote = "audio off, tracking on vision alone: \(error.message)"
            }
        }

        (lipReader, audioNote) = configuration.makeLipReader(following: follower != nil, note: audioNote)
        let built = try configuration.makeDetectionStage()
        detection = built.stage
        detectorFallback = built.fallback
        detectorName = detection.name

        // Motors and the camera they carry.
        let backend: any MotorBackend
        switch configuration.resolvedGimbal {
        case .sim:
            guard configuration.viewSize.width <= source.size.width * 2 else {
                throw SessionError("--view \(configuration.viewSize) is far larger than the source \(source.size); choose a smaller view")
            }
            let viewIntrinsics = CameraIntrinsics(horizontalFieldOfView: configuration.viewFieldOfView * .pi / 180,
                                                  size: configuration.viewSize)
            let virtual = VirtualCamera(worldSize: source.size, worldIntrinsics: worldIntrinsics,
                                        viewSize: configuration.viewSize, viewIntrinsics: viewIntrinsics)
            guard configuration.viewFieldOfView < worldIntrinsics.horizontalFieldOfView * 180 / .pi else {
                throw SessionError("the view's field of view (\(configuration.viewFieldOfView)°) must be narrower than the source's; set --hfov or --view-hfov")
            }
            virtualCamera = virtual
            let gimbal = SimulatedGimbal(model: configuration.gimbalModel, position: initialPose)
            self.gimbal = gimbal
            backend = gimbal
            camera = virtual.cameraInformation
        case .device(let spec):
            throw SessionError("--gimbal \(spec) needs a live --camera; a recording runs with --gimbal sim or none")
        case .dryRun:
            virtualCamera = nil
            gimbal = nil
            backend = NullMotorBackend()
            camera = CameraInformation(referenceDimensions: source.size, intrinsics: worldIntrinsics)
        }
        accessory = DockAccessory(name: backend.name, backend: backend, clock: mediaClock,
                                  controlLaw: configuration.controlLaw.make(configuration.framing, pid: configuration.pid))
        try configuration.configureFraming(of: accessory)
        do {
            feeder = try TrackFeeder(rate: configuration.trackRate)
        } catch {
            throw SessionError("--rate: \(error)")
        }
        if let path = configuration.outputVideo {
            do {
                writer = try VideoWriter(path: path, size: camera.referenceDimensions, fps: source.nominalFrameRate)
            } catch {
                throw SessionError("cannot write the annotated video: \(error)")
            }
        }
    }

    /// Picks the coarsest DCT scale that keeps at least `width` pixels across.
    static func decodeScale(forWidthAtLeast width: Int, path: String) -> DecodeScale {
        guard let probe = try? VideoFileSource(path: path) else { return .full }
        return DecodeScale.allCases.reversed().first { $0.scaled(probe.size.width) >= width } ?? .full
    }

    public var totalFrames: Int? {
        let fromSource = scene.map { $0.configuration.loops ? nil : $0.frameCount } ?? (source as? VideoFileSource)?.frameCount
        switch (fromSource, configuration.maximumFrames) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }

    /// Renders the scene's sound from the last frame to `now` for microphones turning with the
    /// head (the yaw taken as moving linearly between frames) and hands it to the follower.
    private func hearScene(_ sound: SceneSound, until now: MonotonicInstant, yaw: Double) {
        let time = now.seconds(since: .zero)
        let end = min(sound.frameCount, Int(time * sound.sampleRate))
        guard end > soundRendered else { return }
        let from = soundYaw ?? (time, yaw)
        let span = time - from.time
        let channels = sound.render(soundRendered..<end, array: configuration.microphones) { t in
            span > 0 ? from.yaw + (yaw - from.yaw) * min(1, max(0, (t - from.time) / span)) : yaw
        }
        follower?.hear([AudioBlock(channels: channels, sampleRate: sound.sampleRate,
                                   start: MonotonicInstant.zero.advanced(bySeconds: Double(soundRendered) / sound.sampleRate),
                                   sequence: soundRendered)])
        soundRendered = end
        soundYaw = (time, yaw)
    }

    /// Runs until the source ends, a limit is reached or `stop` is set. Leaves the motors stopped.
    public func run(stop: StopFlag = StopFlag(), status: ((SessionStatus) -> Void)? = nil) throws(SessionError) -> SessionSummary {
        var summary = SessionSummary()
        summary.detectorName = detectorName
        summary.outputVideo = configuration.outputVideo
        var identities = IdentityNumbers()
        summary.timings = StageTimings(capacity: configuration.timingWindow)
        var metrics = truth == nil || !configuration.keepFrameRecords ? nil
            : LoopMetrics(viewWidth: Double(camera.referenceDimensions.width), viewHeight: Double(camera.referenceDimensions.height),
                          focalLength: camera.intrinsics.fx)
        let wallStart = wallClock.now
        let cpuStart = SessionSummary.processCPUSeconds()
        let framePeriod = 1 / source.nominalFrameRate
        var mediaStart: MonotonicInstant?
        var lastTime = MonotonicInstant.zero
        var command = Vector3D()
        // Whom the control ticks frame: the latest frame's choice (a skipped frame keeps it).
        var lastFramed: [TrackedSubject] = []
        var lastSound: (rect: NormalizedRect, stamp: FrameStamp)?

        /// Control ticks from a frame to the next, at the feeder's own rate: they run for every
        /// frame, processed or dropped, as the live control thread does.
        func controlTicks(from now: MonotonicInstant) {
            let nextFrame = now.advanced(bySeconds: framePeriod)
            var tick = max(now, feeder.nextDue ?? now)
            while tick < nextFrame {
                gimbal?.advance(to: tick)
                // With system tracking off the client drives the motors; the pipeline only watches.
                if feeder.isDue(at: tick), accessory.isSystemTrackingEnabled {
                    do {
                        // Someone talking where nobody is tracked: turn towards the voice.
                        let observations = lastSound.map { [Observation(identifier: -1, kind: .humanBody, rect: $0.rect, confidence: 1, stamp: $0.stamp)] }
                            ?? feeder.observations(for: lastFramed, at: tick)
                        let outcome = try accessory.submit(observations, camera: camera, at: tick)
                        command = outcome.command
                        summary.trackCalls += 1
                        monitor.recordTrackCall(observationAge: observations.first.map { tick.seconds(since: $0.stamp.time) * 1000 } ?? 0)
                    } catch {
                        // After a stop request the halted motors refuse commands; that is no contract error.
                        if !stop.isSet {
                            summary.rateContractErrors += 1
                            monitor.recordRateContractError()
                        }
                    }
                }
                accessory.service(at: tick)
                guard let due = feeder.nextDue else { break }
                tick = due
            }
        }

        // A stop request halts the motors at once, from the thread that asks (the signal
        // thread), at the media time that corresponds to that moment; the frame in progress
        // then finds its commands refused.
        let haltDelay = Protected<Double?>(nil)
        let motors = accessory.motors, clock = wallClock, mediaClock = self.mediaClock
        stop.whenSet { setAt in
            motors.halt(at: mediaClock.now)
            haltDelay.withLock { $0 = clock.now.seconds(since: max(setAt, wallStart)) }
        }
        defer {
            // Safe state on every exit, errors included.
            accessory.stopMotors(at: lastTime)
            writer?.close()
        }
        while !stop.isSet {
            if let limit = configuration.maximumFrames, summary.frames >= limit { break }
            var mark = wallClock.now
            func lap(_ stage: String) {
                let now = wallClock.now
                summary.timings.record(stage, milliseconds: now.seconds(since: mark) * 1000)
                mark = now
            }
            var frameStart = mark

            let world: Frame
            do {
                guard let next = try source.nextFrame() else { break }
                world = next
            } catch {
                throw SessionError(error.message)
            }
            lap("source")
            let now = world.stamp.time
            let start = mediaStart ?? now
            mediaStart = start
            if let limit = configuration.maximumDuration, now.seconds(since: start) > limit { break }
            if configuration.realTime {
                let due = wallStart.advanced(bySeconds: now.seconds(since: start))
                let wait = due.seconds(since: wallClock.now)
                if wait > 0 {
                    Thread.sleep(forTimeInterval: wait)
                    // Waiting for the frame's time is not work: the frame's figure leaves it out.
                    frameStart = frameStart.advanced(bySeconds: wallClock.now.seconds(since: mark))
                }
                // More than a frame behind: a camera's newest-only mailbox would already hold a
                // newer frame, so this one is dropped, as live capture would.
                if wait < -framePeriod {
                    summary.lateFrames += 1
                    lastTime = now
                    mediaClock.mark(now)
                    controlTicks(from: now)
                    continue
                }
                mark = wallClock.now
            }
            lastTime = now
            mediaClock.mark(now)

            // The view the camera on the gimbal sees now.
            let pose = gimbal?.motionState(at: now).angularPositions ?? Vector3D()
            var view: Frame
            if let virtualCamera {
                do { view = try virtualCamera.render(world, pose: pose) } catch { throw SessionError("rendering failed: \(error)") }
                if let scene {
                    do { try scene.applyCameraEffects(to: &view) } catch { throw SessionError(error.message) }
                }
                lap("render")
            } else {
                view = world
            }

            // The pipeline's own work per frame (what a live camera costs), without the simulator.
            let pipelineStart = wallClock.now
            let found = detection.detect(view, tracking: tracker.focus, cancelled: { stop.isSet })
            summary.detectorFailures += found.errors.count
            let detections = found.detections
            lap("detect")

            tracker.update(with: mapper.observations(from: detections), stamp: view.stamp)
            let subjects = tracker.confirmedSubjects
            selector.locked = accessory.lockedSubjects
            let selected = selector.select(from: subjects)
            // Who speaks decides whom to frame in automatic mode; a lock by the client wins.
            var framed = selected.map { [$0] } ?? []
            var speaking: [UUID: Double] = [:]
            var sound: NormalizedRect?
            if let sceneSound { hearScene(sceneSound, until: now, yaw: pose.y) }
            if follower?.heardSpeech(within: 1, of: now) == true { lipReader?.read(view, detections: detections, subjects: subjects) }
            if follower != nil, accessory.lockedSubjects.isEmpty {
                (framed, speaking, sound) = follower!.choose(from: subjects, fallback: selected, camera: camera, yaw: pose.y,
                                                             lips: lipReader?.activity(at: now) ?? [:], at: now)
            }
            var assessments = Saliency.assess(subjects, at: view.stamp.time)
            for i in assessments.indices { assessments[i].speakingConfidence = speaking[assessments[i].uuid] }
            accessory.publishTracking(assessments, time: Date())
            lap("track")

            lastFramed = framed
            lastSound = sound.map { ($0, view.stamp) }
            controlTicks(from: now)
            lap("control")
            let pipelineMilliseconds = wallClock.now.seconds(since: pipelineStart) * 1000
            summary.timings.record("pipeline", milliseconds: pipelineMilliseconds)
            monitor.recordFrame(SessionMonitor.Snapshot(frame: view, detections: detections.map(\.rect),
                                                        subjects: subjects.map { ($0.id, $0.uuid, $0.rect) }, framed: framed.map(\.uuid)),
                                stages: [(MetricsExposition.frameStage, pipelineMilliseconds)],
                                dropped: summary.lateFrames, detectorFailures: found.errors.count)

            // Ground truth, for the metrics and the overlay.
            let coordinates = ImageCoordinates(size: view.size)
            let selectedRect = framed.first.map { coordinates.pixels($0.rect) }
            var truthInView: [PixelRect] = []
            if let truth, var recorded = metrics {
                let people = truth.groundTruth(sequence: world.stamp.sequence).map { person in
                    let rect = virtualCamera.map { $0.project(worldRect: person.face, pose: pose) } ?? person.face
                    let direction = virtualCamera?.pose(centering: PixelPoint(x: person.face.midX, y: person.face.midY)) ?? Vector3D()
                    return PersonSample(id: person.id, rect: rect, hidden: person.hidden, speaking: person.speaking,
                                        yaw: direction.y, pitch: direction.x)
                }
                truthInView = people.compactMap { $0.hidden ? nil : $0.rect }
                let faceTracks = tracker.confirmedTracks.filter { $0.kind == .humanFace }.map { track in
                    IdentifiedBox(id: identities.number(for: track.uuid), rect: coordinates.pixels(track.rect))
                }
                let sample = FrameSample(time: now.seconds(since: start), yaw: pose.y, pitch: pose.x, commandYaw: command.y,
                                         commandPitch: command.x, people: people, selected: selectedRect,
                                         alsoSelected: framed.dropFirst().map { coordinates.pixels($0.rect) }, faceTracks: faceTracks)
                let target = SceneEvaluation.target(in: sample, primaryID: nil)
                let targetRect = target.flatMap { id in people.first { $0.id == id } }?.rect
                recorded.record(LoopSample(time: sample.time, targetCenterX: targetRect?.midX, targetCenterY: targetRect?.midY,
                                           targetSelected: target.map { SceneEvaluation.chosenPeople(sample).contains($0) } ?? false))
                metrics = recorded
                summary.frameSamples.append(sample)
            }

            if let writer {
                var text = String(format: "OpenDock  frame %d  t %.2f s  detector %@  subject %@", summary.frames,
                                  now.seconds(since: start), detectorName as NSString,
                                  (framed.isEmpty ? "none" : framed.map { "#\($0.id)" }.joined(separator: "+")) as NSString)
                if let metrics, let last = metrics.samples.last {
                    // Live figures against the truth: this frame's error and the share in view so far.
                    text += String(format: "  error %@  in view %@",
                                   (metrics.centeringErrorDegrees(last).map { String(format: "%.1f deg", $0) } ?? "-") as NSString,
                                   (metrics.inViewShare.map { String(format: "%.0f%%", $0 * 100) } ?? "-") as NSString)
                }
                let annotated = !configuration.annotateOutput ? view : Annotator().annotate(view, detections: detections, subjects: subjects, selectedID: framed.first?.id,
                                                     truth: truthInView, pose: pose, command: command, text: text)
                do { try writer.write(annotated) } catch {
                    // Losing the video must not stop the tracking: say so once and go on without it.
                    writer.close()
                    self.writer = nil
                    summary.outputVideoError = "annotated video stopped at frame \(summary.frames): \(error)"
                }
                lap("annotate")
            }
            if configuration.keepFrameRecords { summary.trace.append(TraceRow(sequence: world.stamp.sequence, time: now.seconds(since: start), yaw: pose.y, pitch: pose.x,
                                          commandYaw: command.y, commandPitch: command.x, selectedID: framed.first?.id,
                                          subjects: subjects.map { ($0.id, $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) })) }
            summary.timings.record("frame", milliseconds: wallClock.now.seconds(since: frameStart) * 1000)
            summary.frames += 1
            progress?()

            if let status {
                let last = metrics?.samples.last.flatMap { metrics?.centeringErrorDegrees($0) }
                status(SessionStatus(frame: summary.frames, totalFrames: totalFrames, mediaTime: now.seconds(since: start),
                                     wallSeconds: wallClock.now.seconds(since: wallStart), pose: pose,
                                     selectedID: framed.first?.id, inViewShare: metrics?.inViewShare, lastCenteringError: last))
            }
        }

        // Safe state: motors stopped before anything else is reported.
        accessory.stopMotors(at: lastTime)
        // Motors cannot move before the run starts: a signal during start-up counts from then.
        summary.motorStopDelay = haltDelay.withLock { $0 } ?? stop.setAt.map { wallClock.now.seconds(since: max($0, wallStart)) }
        summary.cpuSeconds = SessionSummary.processCPUSeconds() - cpuStart
        summary.finalCommand = accessory.motors.lastCommand
        summary.stoppedBySignal = stop.isSet
        summary.deadmanStops = accessory.motors.deadmanStops
        summary.droppedFrames = source.droppedFrames
        summary.wallSeconds = wallClock.now.seconds(since: wallStart)
        summary.mediaSeconds = mediaStart.map { lastTime.seconds(since: $0) } ?? 0
        summary.metrics = metrics
        return summary
    }
}
