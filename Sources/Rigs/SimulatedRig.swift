import Audio
import Capture
import DockCore
import Foundation
import Motion
import Pipeline
import Simulation

extension Rig {
    /// The simulated rig: the demo scene or a recording as the world, a virtual camera on the
    /// simulated gimbal (with `--gimbal none`, a fixed one, or the recording itself), the scene's sound. Real
    /// time when the configuration paces frames, else lock-step. `initialPose` starts the gimbal
    /// elsewhere than straight ahead.
    package static func simulated(_ configuration: SessionConfiguration, initialPose: Vector3D = Vector3D())
        throws(SessionError) -> (rig: Rig, world: SimulatedWorld)
    {
        let (world, scene, worldIntrinsics) = try worldSource(configuration)
        let timing: Timing = configuration.realTime ? .realTime : .lockStep
        let mediaClock = MediaClock()
        var virtualCamera: VirtualCamera?
        var gimbal: SimulatedGimbal?
        let backend: any MotorBackend
        let camera: CameraInformation
        switch configuration.resolvedGimbal {
        case .sim:
            let virtual = try viewCamera(configuration, world: world.size, worldIntrinsics: worldIntrinsics)
            let simulated = SimulatedGimbal(model: configuration.gimbalModel, position: initialPose)
            (virtualCamera, gimbal, backend, camera) = (
                virtual, simulated, configuration.mounted(simulated), virtual.cameraInformation
            )
        case .device(let spec):
            throw SessionError(
                "--gimbal \(spec) needs a live --camera; a recording runs with --gimbal sim or none", kind: .setup)
        case .dryRun where scene != nil:
            // No gimbal in a generated scene: a fixed camera (the view's size and field of view)
            // looks into it from the initial pose; commands go nowhere, so it never turns.
            let virtual = try viewCamera(configuration, world: world.size, worldIntrinsics: worldIntrinsics)
            let fixed = SimulatedGimbal(model: configuration.gimbalModel, position: initialPose)
            (virtualCamera, gimbal, backend, camera) = (virtual, fixed, NullMotorBackend(), virtual.cameraInformation)
        case .dryRun:
            backend = NullMotorBackend()
            camera = CameraInformation(referenceDimensions: world.size, intrinsics: worldIntrinsics)
        }
        // A zoom lens only on a camera that renders a view (a recording seen whole cannot zoom).
        let lens = virtualCamera != nil ? configuration.simulatedZoomLens.map { SimulatedZoomLens(model: $0) } : nil
        let cancelled = Protected(false)
        let rendered = SimulatedCamera(
            world: world, scene: scene, virtualCamera: virtualCamera, gimbal: gimbal, lens: lens,
            reading: backend is NullMotorBackend ? nil : backend, camera: camera,
            pacing: timing == .realTime ? mediaClock : nil, cancellation: cancelled)
        let source = SourceHandOver(
            configuration.profile.perceptionRate.map { ThinnedSource(rendered, rate: $0) } ?? rendered)
        let fromSource =
            scene.map { $0.configuration.loops ? nil : $0.frameCount } ?? (world as? VideoFileSource)?.frameCount
        let totalFrames = [fromSource, configuration.maximumFrames].compactMap { $0 }.min()
        let rig = Rig(
            timing: timing, clock: mediaClock, mediaClock: mediaClock, backend: backend, gimbal: gimbal,
            sourceSummary: world.summary, nominalFrameRate: world.nominalFrameRate, totalFrames: totalFrames,
            camera: camera,
            zoom: lens,
            sound: sceneSound(configuration, scene: scene),
            cancel: { cancelled.withLock { $0 = true } },
            makeSource: { () throws(FrameSourceError) in try source.take() })
        return (rig, SimulatedWorld(truth: scene, virtualCamera: virtualCamera, camera: camera))
    }

    /// The world: the generated demo scene or a recording, with its intrinsics.
    private static func worldSource(_ configuration: SessionConfiguration) throws(SessionError)
        -> (any FrameSource, GeneratedScene?, CameraIntrinsics)
    {
        switch configuration.source {
        case .demo:
            do {
                let scene = try GeneratedScene(
                    photos: ScenePhotos(mediaDirectory: configuration.resolvedMediaDirectory),
                    configuration: configuration.scene)
                return (scene, scene, scene.worldIntrinsics)
            } catch {
                throw SessionError("cannot build the demo scene: \(error.message)")
            }
        case .file(let path):
            // Without a gimbal the frames need be no larger than the detector's input; regions
            // needing more are decoded from the picture each frame keeps. With a simulated gimbal
            // the file is the world a view is cut from, so it stays whole.
            let scale: DecodeScale =
                configuration.resolvedGimbal == .dryRun
                ? decodeScale(forWidthAtLeast: configuration.detectorInputWidth, path: path) : .full
            do {
                let file = try VideoFileSource(path: path, scale: scale, keepingDetail: true)
                return (
                    file, nil,
                    CameraIntrinsics(
                        horizontalFieldOfView: configuration.resolvedFieldOfView * .pi / 180, size: file.size)
                )
            } catch {
                throw SessionError(error.message)
            }
        case .camera:
            throw SessionError("a live camera runs on the live rig, not in the simulation", kind: .setup)
        }
    }

    /// The camera on the simulated gimbal, checked against the world it looks into.
    private static func viewCamera(
        _ configuration: SessionConfiguration, world: PixelSize,
        worldIntrinsics: CameraIntrinsics
    ) throws(SessionError) -> VirtualCamera {
        guard configuration.viewSize.width <= world.width * 2 else {
            throw SessionError(
                "--view \(configuration.viewSize) is far larger than the source \(world); choose a smaller view",
                kind: .setup)
        }
        guard configuration.viewFieldOfView < worldIntrinsics.horizontalFieldOfView * 180 / .pi else {
            throw SessionError(
                "the view's field of view (\(configuration.viewFieldOfView)°) must be narrower than the source's; set --hfov or --view-hfov",
                kind: .setup)
        }
        let viewIntrinsics = CameraIntrinsics(
            horizontalFieldOfView: configuration.viewFieldOfView * .pi / 180, size: configuration.viewSize)
        return VirtualCamera(
            worldSize: world, worldIntrinsics: worldIntrinsics, viewSize: configuration.viewSize,
            viewIntrinsics: viewIntrinsics)
    }

    /// Picks the coarsest DCT scale that keeps at least `width` pixels across.
    static func decodeScale(forWidthAtLeast width: Int, path: String) -> DecodeScale {
        guard let probe = try? VideoFileSource(path: path) else { return .full }
        return .coarsest(keeping: width, of: probe.size.width)
    }

    /// What the run hears: a recording's sound file, a generated scene's speech (at a fixed
    /// pair in the room, or on the camera as the head turns), or nothing.
    private static func sceneSound(_ configuration: SessionConfiguration, scene: GeneratedScene?) -> RigSound {
        guard configuration.useAudio else { return .none }
        let array = configuration.microphones
        do throws(AudioError) {
            var clip: AudioClip?
            if let file = configuration.audioFile {
                clip = try WAVFile.read(path: file)
            } else if let scene, scene.configuration.people.contains(where: { !$0.speaking.isEmpty }) {
                if array.mounting == .camera {
                    let sound = try SceneSound(scene.configuration)
                    let analyzer = try SpeechAnalyzer(sampleRate: sound.sampleRate, channelCount: 2, array: array)
                    return RigSound(
                        follower: SpeakerFollower(analyzer: analyzer, policy: configuration.speakerPolicy),
                        input: SceneSoundInput(
                            sound: sound, array: array, channelsSwapped: configuration.soundChannelsSwapped),
                        note: String(
                            format:
                                "audio: 2 channels at %.0f Hz, %.1f s, microphones on the camera (heard as the head turns)%@",
                            sound.sampleRate, Double(sound.frameCount) / sound.sampleRate, array.unusualOrderNote))
                }
                clip = try SceneAudio.synthesize(scene.configuration, array: array)
            }
            guard var clip else { return .none }
            if configuration.soundChannelsSwapped && clip.isStereo { clip.channels.reverse() }
            if let scene, scene.configuration.loops, configuration.audioFile == nil {
                // Heard again with each pass of the scene, as it comes.
                let analyzer = try SpeechAnalyzer(
                    sampleRate: clip.sampleRate, channelCount: clip.channels.count, array: array)
                return RigSound(
                    follower: SpeakerFollower(analyzer: analyzer, policy: configuration.speakerPolicy),
                    input: LoopingClipInput(
                        clip: clip, passSeconds: Double(scene.frameCount) / scene.configuration.frameRate),
                    note: String(
                        format: "audio: %d channel%@ at %.0f Hz, heard again with each pass of the scene",
                        clip.channels.count, clip.channels.count == 1 ? "" : "s", clip.sampleRate))
            }
            return RigSound(
                follower: try SpeakerFollower(clip: clip, array: array, policy: configuration.speakerPolicy),
                input: nil,
                note: String(
                    format: "audio: %d channel%@ at %.0f Hz, %.1f s%@", clip.channels.count,
                    clip.channels.count == 1 ? "" : "s",
                    clip.sampleRate, clip.duration,
                    clip.isStereo ? array.unusualOrderNote : SessionConfiguration.monoNote))
        } catch {
            return RigSound(follower: nil, input: nil, note: "audio off, tracking on vision alone: \(error.message)")
        }
    }
}
