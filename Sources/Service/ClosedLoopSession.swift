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
    public let sourceSummary: String

    private let source: any FrameSource
    private let scene: GeneratedScene?
    /// Where the people really are: the generated scene's exact truth or a scene file's labels.
    private let truth: (any GroundTruthProvider)?
    private let detection: DetectionStage
    private let virtualCamera: VirtualCamera?
    private let gimbal: SimulatedGimbal?
    /// The accessory the loop drives (its `trackingStates` report what the loop tracks).
    package let accessory: DockAccessory
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
        accessory = DockAccessory(name: backend.name, backend: backend, clock: SystemMonotonicClock(),
                                  controlLaw: configuration.controlLaw.make(configuration.framing, pid: configuration.pid))
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

        // A stop request halts the motors at once, from the thread that asks (the signal
        // thread), at the media time that corresponds to that moment; the frame in progress
        // then finds its commands refused.
        let mediaNow = Protected<(media: MonotonicInstant, wall: MonotonicInstant)?>(nil)
        let haltDelay = Protected<Double?>(nil)
        let motors = accessory.motors, clock = wallClock
        stop.whenSet { [weak stop] in
            let wall = clock.now
            let media = mediaNow.withLock { $0.map { $0.media.advanced(bySeconds: wall.seconds(since: $0.wall)) } } ?? .zero
            motors.halt(at: media)
            haltDelay.withLock { $0 = stop?.setAt.map { clock.now.seconds(since: max($0, wallStart)) } }
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
                    continue
                }
                mark = wallClock.now
            }
            lastTime = now
            mediaNow.withLock { $0 = (now, wallClock.now) }

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
            accessory.publishTracking(Saliency.assess(subjects, at: view.stamp.time), time: Date())
            lap("track")

            // Control ticks from this frame to the next, at the feeder's own rate.
            let nextFrame = now.advanced(bySeconds: framePeriod)
            var tick = max(now, feeder.nextDue ?? now)
            while tick < nextFrame {
                gimbal?.advance(to: tick)
                if feeder.isDue(at: tick) {
                    do {
                        let outcome = try accessory.submit(feeder.observations(for: selected, at: tick), camera: camera, at: tick)
                        command = outcome.command
                        summary.trackCalls += 1
                    } catch {
                        // After a stop request the halted motors refuse commands; that is no contract error.
                        if !stop.isSet { summary.rateContractErrors += 1 }
                    }
                }
                accessory.service(at: tick)
                guard let due = feeder.nextDue else { break }
                tick = due
            }
            lap("control")
            summary.timings.record("pipeline", milliseconds: wallClock.now.seconds(since: pipelineStart) * 1000)

            // Ground truth, for the metrics and the overlay.
            let coordinates = ImageCoordinates(size: view.size)
            let selectedRect = selected.map { coordinates.pixels($0.rect) }
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
                                         commandPitch: command.x, people: people, selected: selectedRect, faceTracks: faceTracks)
                let target = SceneEvaluation.target(in: sample, primaryID: nil)
                let targetRect = target.flatMap { id in people.first { $0.id == id } }?.rect
                recorded.record(LoopSample(time: sample.time, targetCenterX: targetRect?.midX, targetCenterY: targetRect?.midY,
                                           targetSelected: target != nil && SceneEvaluation.chosenPerson(sample) == target))
                metrics = recorded
                summary.frameSamples.append(sample)
            }

            if let writer {
                var text = String(format: "OpenDock  frame %d  t %.2f s  detector %@  subject %@", summary.frames,
                                  now.seconds(since: start), detectorName as NSString,
                                  (selected.map { "#\($0.id)" } ?? "none") as NSString)
                if let metrics, let last = metrics.samples.last {
                    // Live figures against the truth: this frame's error and the share in view so far.
                    text += String(format: "  error %@  in view %@",
                                   (metrics.centeringErrorDegrees(last).map { String(format: "%.1f deg", $0) } ?? "-") as NSString,
                                   (metrics.inViewShare.map { String(format: "%.0f%%", $0 * 100) } ?? "-") as NSString)
                }
                let annotated = !configuration.annotateOutput ? view : Annotator().annotate(view, detections: detections, subjects: subjects, selectedID: selected?.id,
                                                     truth: truthInView, pose: pose, command: command, text: text)
                do { try writer.write(annotated) } catch {
                    self.writer = nil
                    throw SessionError("writing the annotated video failed: \(error) (is the disk full?)")
                }
                lap("annotate")
            }
            if configuration.keepFrameRecords { summary.trace.append(TraceRow(sequence: world.stamp.sequence, time: now.seconds(since: start), yaw: pose.y, pitch: pose.x,
                                          commandYaw: command.y, commandPitch: command.x, selectedID: selected?.id,
                                          subjects: subjects.map { ($0.id, $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) })) }
            summary.timings.record("frame", milliseconds: wallClock.now.seconds(since: frameStart) * 1000)
            summary.frames += 1

            if let status {
                let last = metrics?.samples.last.flatMap { metrics?.centeringErrorDegrees($0) }
                status(SessionStatus(frame: summary.frames, totalFrames: totalFrames, mediaTime: now.seconds(since: start),
                                     wallSeconds: wallClock.now.seconds(since: wallStart), pose: pose,
                                     selectedID: selected?.id, inViewShare: metrics?.inViewShare, lastCenteringError: last))
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
