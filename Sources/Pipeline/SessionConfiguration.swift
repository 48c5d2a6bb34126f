import Audio
import CameraOutputs
import Capture
import Control
import DockCore
import DockEngine
import Foundation
import Motion
import MotorDevices
import Perception
import SceneModel
import Tracking

/// What the pipeline reads.
public enum SourceChoice: Sendable, Equatable {
    /// The generated demo scene (real photos, a walking subject, exact ground truth).
    case demo
    /// A recorded video file.
    case file(String)
    /// A live V4L2 camera: a device node or a stable name such as /dev/v4l/by-id/….
    case camera(String)
}

public enum GimbalChoice: Sendable, Equatable {
    /// The simulated gimbal; the file is the wide world and a virtual camera renders its view.
    case sim
    /// No motors: the pipeline runs on the source's frames and only reports its commands.
    case dryRun
    /// A real motor device (with a live camera).
    case device(MotorDeviceSpec)

    /// Parses `sim`, `none`, or a device spec (see `MotorDeviceSpec`).
    public init?(parsing text: String) {
        switch text {
        case "sim": self = .sim
        case "none": self = .dryRun
        default:
            guard let spec = MotorDeviceSpec(parsing: text) else { return nil }
            self = .device(spec)
        }
    }

    public var label: String {
        switch self {
        case .sim: "sim"
        case .dryRun: "none (dry run)"
        case .device(let spec): spec.description
        }
    }
}

/// Everything one run of the pipeline needs; built from dockd's options.
public struct SessionConfiguration: Sendable {
    public var source: SourceChoice = .demo
    /// Horizontal field of view of the recording or camera (degrees); nil = 90° for a
    /// recording (a wide shot), a typical webcam's 70° for a camera. The demo knows its own.
    public var sourceFieldOfView: Double?
    /// Live capture: the size and rate asked of the camera, and an optional calibration file.
    public var captureSize = PixelSize(width: 1280, height: 720)
    public var captureFrameRate = 30.0
    public var calibrationFile: String?
    public var viewSize = PixelSize(width: 1280, height: 720)
    public var viewFieldOfView: Double = 60
    public var trackRate: Double = 30
    public var detector: FaceDetectorChoice = .yunet
    /// Bodies keep people tracked when their faces turn away or are too small.
    public var bodyDetector: BodyDetectorChoice = .ssdlite
    /// COCO classes tracked as `.object` subjects (YOLOX-nano), e.g. ["cat", "dog"].
    public var objectClasses: Set<String> = []
    public var detectorInputWidth = 320
    public var modelsDirectory: String?
    public var mediaDirectory: String?
    /// nil = `sim` for recordings and the demo, `none` for a live camera.
    public var gimbal: GimbalChoice?
    public var gimbalModel = GimbalModel()
    /// Which way the head's axes turn the camera as mounted (`--pan-direction`, `--tilt-direction`).
    public var mount = MountDirections.normal
    /// How far the camera turns per unit the head reads (`--pan-scale`, `--tilt-scale`).
    public var scales = AxisScales.exact
    /// Whether the head's build was given (a direction, scale or latency), so nothing is to be
    /// learnt at first use; and whether dockd learns it at first use (`--calibrate`).
    public var headDescribed = false
    public var calibrateAtFirstUse = false
    /// How a head's battery voltage becomes a charge (`--battery-cells`, `--battery-low`).
    public var batteryGauge = BatteryGauge()
    /// Where dockd keeps what it learnt (`--state-dir`); nil = `FirstUseCalibration.defaultDirectory()`.
    public var stateDirectory: String?
    /// Whether the engine drives the camera's optical zoom, and how large the framed face is kept.
    public var zoom = ZoomChoice.off
    public var zoomFaceShare = ZoomFollower.Settings().faceShare
    /// The simulated camera's zoom lens; nil = a fixed lens.
    public var simulatedZoomLens: ZoomLensModel?
    /// The head's command latency as measured (`--command-latency`), seconds; nil = the device's own figure.
    public var commandLatency: Double?
    public var framing = FramingConfiguration()
    /// The privacy preset (radians); nil = turned as far from the room as the limits allow, and down.
    public var privacyPose: Vector3D?
    /// Where the head goes when the run ends (nil = it stops where it is).
    package var parkOnExit: Preset?
    /// Where the chosen subject sits, and the part of the frame it is kept in (DockKit's
    /// framing mode and region of interest; normalized, origin upper left; nil = whole frame).
    public var framingMode = FramingMode.automatic
    public var regionOfInterest: CGRect?
    public var controlLaw = ControlLawChoice.dock
    public var pid = PIDConfiguration()
    public var outputVideo: String?
    /// The most annotated video kept on disk, bytes: older parts are removed (`--output-keep`).
    public var outputVideoKeepBytes: Int64?
    /// The per-frame trace, written to this file as the run goes (`--trace`).
    public var tracePath: String?
    /// The virtual camera every captured frame is written to, clean (`--video-out`).
    public var videoOut: VideoOutRequest?
    /// Digital framing of that output: a crop following the framed subject; nil shows it all.
    public var digitalFraming: CropFollower.Settings?
    /// Draw boxes, ids and figures on the output video; false writes the camera's view untouched.
    public var annotateOutput = true
    /// Pace frames at the source's rate in wall time; otherwise run as fast as the machine can.
    public var realTime = true
    public var maximumDuration: Double?
    public var maximumFrames: Int?
    public var scene = SceneConfiguration()
    public var openCVThreads: Int?
    /// What the computer can carry: perception rate, detector schedule, threads.
    public var profile = ComputerProfile.desktop
    /// Follow speakers by ear: a scene's recording (`audioFile`) or, for generated scenes with
    /// speech, audio synthesized for them. Off = framing by vision alone.
    public var useAudio = true
    public var audioFile: String?
    /// Simulation only: the scene's microphones deliver their channels right, left (a pair
    /// wired the other way round), whatever `microphones` says about how to read them.
    public var soundChannelsSwapped = false
    /// A live camera's microphones: an ALSA capture device ("plughw:CARD=C920", "default").
    public var audioDevice: String?
    /// ALSA configuration text used instead of the system's when opening `audioDevice` (tests
    /// define devices on ALSA's `file` plugin this way); nil = the system's, ~/.asoundrc included.
    public var audioConfiguration: String?
    public var microphones = MicrophoneArray()
    public var speakerPolicy = SpeakerPolicyConfiguration()
    /// Lip reading while following speakers: who of several people in the sound's direction
    /// talks, and who talks at all when the sound has no direction.
    public var lips = LipChoice.facemesh
    /// Keep the per-frame trace and truth samples in memory (the benchmark's figures need them);
    /// the daemon and a soak turn this off: a run of days must not keep a record per frame.
    public var keepFrameRecords = true
    /// Per-stage timings kept for percentiles: the latest this many frames.
    public var timingWindow = 100_000
    /// How many of the latest frames a service's live figures cover (stage timings, error
    /// percentiles): ten minutes at 30 fps, held in a fixed few MiB however long it runs.
    public static let liveWindowFrames = 18_000

    public init() {}

    public var resolvedGimbal: GimbalChoice {
        if let gimbal { return gimbal }
        if case .camera = source { return .dryRun }
        return .sim
    }

    public var resolvedFieldOfView: Double {
        if let sourceFieldOfView { return sourceFieldOfView }
        if case .camera = source { return CameraIntrinsicsSource.defaultFieldOfView }
        return 90
    }

    /// The demo scene's photos: the given directory, $OPENDOCK_MEDIA, or ./.cache/media.
    public var resolvedMediaDirectory: String {
        mediaDirectory ?? ProcessInfo.processInfo.environment["OPENDOCK_MEDIA"]
            ?? FileManager.default.currentDirectoryPath + "/.cache/media"
    }
}

extension SessionConfiguration {
    /// The motor device as the engine drives it: through the mount when an axis is inverted,
    /// with the latency measured on it when there is one.
    package func mounted(_ device: any MotorBackend) -> any MotorBackend {
        mount.isNormal && scales.isExact && commandLatency == nil
            ? device : MountedBackend(device, directions: mount, scales: scales, commandLatency: commandLatency)
    }
}
