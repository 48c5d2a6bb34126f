import Audio
import Capture
import DockCore
import Foundation
import Motion
import MotorDevices
import Pipeline

extension Rig {
    /// The live rig: a V4L2 camera (reopened when it comes back after an unplug), a motor
    /// device or none, the microphones when named, the system's monotonic clock. Everything is
    /// opened here, so a missing camera, device or unusable option is refused before anything
    /// moves; the camera streams from then on, so build the rig once the detectors exist.
    static func live(_ configuration: SessionConfiguration, system: any VideoDeviceSystem = LinuxVideoDeviceSystem())
        throws(SessionError) -> Rig
    {
        guard case .camera(let path) = configuration.source else {
            throw SessionError("the live rig needs a camera source", kind: .setup)
        }
        if configuration.resolvedGimbal == .sim {
            throw SessionError(
                "--gimbal sim turns a virtual camera inside a recording and cannot move a real camera; name a motor device or use --gimbal none",
                kind: .setup)
        }
        var calibration: CameraCalibration?
        if let file = configuration.calibrationFile {
            do { calibration = try CameraCalibration.load(file) } catch {
                throw SessionError(error.message, kind: .setup)
            }
        }
        let intrinsics = CameraIntrinsicsSource(calibration: calibration, fieldOfView: configuration.sourceFieldOfView)
        let clock = SystemMonotonicClock()
        let events = Protected<[CameraEvent]>([])
        let camera: ReconnectingCamera
        do {
            camera = try ReconnectingCamera(
                path: path, request: captureRequest(configuration), system: system, intrinsics: intrinsics,
                followsZoomControl: configuration.zoom == .off
            ) { event in
                events.withLock { $0.append(event) }
            }
        } catch {
            throw SessionError(error.description, kind: error.sessionKind)
        }
        var device: (any MotorBackend)?
        if case .device(let spec) = configuration.resolvedGimbal {
            do {
                device = try spec.connect(camera: path) { event in
                    switch event {
                    case .connected(let name): events.withLock { $0.append(.docked("gimbal \(name) reconnected")) }
                    case .disconnected(let name):
                        events.withLock { $0.append(.undocked("gimbal \(name) disconnected")) }
                    }
                }
            } catch {
                throw SessionError(error.description, kind: error.sessionKind)
            }
        }
        let backend = device.map { configuration.mounted($0) } ?? NullMotorBackend()
        let zoom = configuration.zoom == .auto ? zoomDrive(device: device, camera: path, system: system) : nil
        let cancellation = camera.cancellation
        let handOver = SourceHandOver(zoom.map { ZoomedFrames(camera, drive: $0) } ?? camera)
        let rig = Rig(
            timing: .realTime, clock: clock, mediaClock: nil, backend: backend, gimbal: nil,
            sourceSummary: camera.summary,
            nominalFrameRate: camera.nominalFrameRate, totalFrames: configuration.maximumFrames,
            camera: camera.information.current ?? intrinsics.cameraInformation(size: camera.size),
            pictureSize: camera.pictureSize, zoom: zoom,
            sound: microphones(configuration, clock: clock), events: events,
            cancel: { cancellation.cancel() }, makeSource: { () throws(FrameSourceError) in try handOver.take() })
        return rig
    }

    /// The zoom the engine drives: a VISCA camera's own, else the capture device's UVC zoom
    /// controls; nil when there is neither.
    static func zoomDrive(device: (any MotorBackend)?, camera: String, system: any VideoDeviceSystem)
        -> (any ZoomDrive)?
    {
        if let visca = device as? VISCABackend, let zoom = visca.zoomDrive() { return zoom }
        guard let port = try? V4L2ControlPort(path: camera, system: system) else { return nil }
        return UVCZoom(name: "UVC zoom of \(camera)", port: port)
    }

    private static func captureRequest(_ configuration: SessionConfiguration) -> CaptureRequest {
        var request = CaptureRequest()
        request.size = configuration.captureSize
        request.frameRate = configuration.captureFrameRate
        // Decode no larger than the detector's input; second looks, lips and the preview decode
        // the regions they need from the JPEG each frame keeps.
        request.decodeScale = .coarsest(
            keeping: configuration.detectorInputWidth, of: configuration.captureSize.width)
        request.keepDetail = true
        // A raw frame's full picture stays in its driver buffer while frames use it (the one in
        // detection, the newest waiting, the status page's, the virtual camera's), and two buffers
        // always stay with the driver.
        request.bufferCount = 6
        // Video out shows every frame the camera sends, so nothing is thinned while it is on.
        if configuration.videoOut == nil { request.deliveredRate = configuration.profile.perceptionRate }
        return request
    }

    /// The microphones, opened now so that a missing or unusable one is reported at start;
    /// without them the run tracks on vision alone.
    private static func microphones(_ configuration: SessionConfiguration, clock: SystemMonotonicClock) -> RigSound {
        guard configuration.useAudio, let device = configuration.audioDevice else { return .none }
        do throws(AudioError) {
            let source = try ALSACaptureSource(
                device: device, configuration: configuration.audioConfiguration, clock: clock)
            let analyzer = try SpeechAnalyzer(
                sampleRate: source.sampleRate, channelCount: source.channelCount, array: configuration.microphones)
            let note =
                "audio: \(source.summary)"
                + (source.channelCount == 1
                    ? SessionConfiguration.monoNote : "; " + configuration.microphones.orderNote)
            let heard = UncheckedBox(source)
            return RigSound(
                follower: SpeakerFollower(analyzer: analyzer, policy: configuration.speakerPolicy),
                input: MicrophoneInput(
                    thread: AudioCaptureThread(name: "opendock.audio") { heard.value }, device: device), note: note)
        } catch {
            return RigSound(follower: nil, input: nil, note: "audio off, tracking on vision alone: \(error.message)")
        }
    }
}
