import Audio
import CameraOutputs
import Control
import ControlClient
import DockCore
import DockEngine
import DockKit
import Foundation
import Motion
import Perception
import Pipeline
import SceneFiles

extension DockdOption {
    /// Every option, in `--help`'s order.
    static let all: [DockdOption] = [
        DockdOption(
            "--demo", .source,
            help: ["run on the generated demo scene (the default)"],
            key: .init(section: "source", name: "demo", kind: .flag, summary: "`true` runs the demo scene")
        ) { o, _ in o.configuration.source = .demo },
        DockdOption(
            "--source", "FILE", .source,
            help: ["a recorded video: MJPEG AVI, MP4/H.264, MKV, anything FFmpeg reads"],
            key: .init(section: "source", name: "file", kind: .path, summary: "a recording (path)")
        ) { o, v in o.configuration.source = .file(v) },
        DockdOption(
            "--scene", "FILE", .source,
            help: [
                "a scene file (docs/scenes.md) in place of the demo: its people, their",
                "speech, its camera and simulated gimbal (later options override them)",
            ],
            key: .init(section: "source", name: "scene", kind: .path, summary: "a scene file (path)")
        ) { o, v in
            let scene: BenchScene
            do throws(SessionError) { scene = try BenchScene.load(path: v) } catch {
                throw UsageError("--scene: \(error.message)")
            }
            let loops = o.configuration.scene.loops
            o.configuration = scene.configuration(base: o.configuration)
            o.configuration.scene.loops = loops
        },
        DockdOption(
            "--camera", "DEVICE", .source,
            help: [
                "a live V4L2 camera: /dev/videoN or a stable /dev/v4l/by-id/… name",
                "(see dockctl devices); reopened when it comes back after an unplug",
            ],
            key: .init(section: "source", name: "camera", kind: .value, summary: "V4L2 device or stable name")
        ) { o, v in o.configuration.source = .camera(v) },
        DockdOption(
            "--size", "WxH", .source,
            help: ["size asked of the camera (default 1280x720; MJPEG preferred)"],
            key: .init(
                section: "source", name: "size", kind: .value, summary: "`\"1280x720\"`: size asked of the camera")
        ) { o, v in
            o.configuration.captureSize = try OptionValue.size(
                v, width: 16...8192, height: 16...8192, or: "--size expects WIDTHxHEIGHT")
        },
        DockdOption(
            "--fps", "N", .source,
            help: ["frame rate asked of the camera (default 30)"],
            key: .init(section: "source", name: "fps", kind: .value, summary: "frames per second asked of the camera")
        ) { o, v in o.configuration.captureFrameRate = try OptionValue.number(v, "--fps", in: 1...240) },
        DockdOption(
            "--calibration", "FILE", .source,
            help: ["OpenCV calibration (YAML or JSON) for the camera's intrinsics"],
            key: .init(section: "source", name: "calibration", kind: .path, summary: "OpenCV calibration file (path)")
        ) { o, v in o.configuration.calibrationFile = v },
        DockdOption(
            "--hfov", "DEG", .source,
            help: [
                "horizontal field of view of the recording (default 90) or of the",
                "camera when there is no calibration (default 70)",
            ],
            key: .init(
                section: "source", name: "hfov_deg", kind: .value, summary: "field of view of the recording or camera")
        ) { o, v in o.configuration.sourceFieldOfView = try OptionValue.number(v, "--hfov", in: 10...170) },
        DockdOption(
            "--media", "DIR", .source,
            help: ["photos for the demo scene (default ./.cache/media or $OPENDOCK_MEDIA)"],
            key: .init(section: "source", name: "media", kind: .path, summary: "photos for the demo (path)")
        ) { o, v in o.configuration.mediaDirectory = v },
        DockdOption(
            "--gimbal", "KIND", .gimbal,
            help: [
                "sim: closed loop, a simulated gimbal turns a virtual camera inside",
                "the recording (default for recordings); none: dry run on the",
                "source's own frames, commands computed but nothing moves (default",
                "with --camera); with --camera, a real device:",
                "  simplebgc:PATH[@BAUD]   SimpleBGC controller (default 115200)",
                "  visca:PATH[@BAUD]       VISCA camera on serial (default 9600)",
                "  visca-udp:HOST[:PORT]   VISCA over IP (default port 52381)",
                "  visca-tcp:HOST:PORT     raw VISCA over TCP",
                "  pelco:PATH[@BAUD][/ADDR] Pelco-D head (default 9600, address 1)",
                "  maestro:PATH            Pololu Maestro servos (pan 0, tilt 1)",
                "  uvc                     the camera's own pan/tilt controls",
            ],
            key: .init(
                section: "gimbal", name: "device", kind: .value,
                summary: "`sim`, `none` or a device spec (`simplebgc:/dev/ttyUSB0`, `visca-udp:HOST`, …)")
        ) { o, v in
            guard let gimbal = GimbalChoice(parsing: v) else {
                throw UsageError(
                    "--gimbal must be sim, none, simplebgc:PATH, visca:PATH, visca-udp:HOST, visca-tcp:HOST:PORT, pelco:PATH, maestro:PATH or uvc; got '\(v)'"
                )
            }
            o.configuration.gimbal = gimbal
        },
        DockdOption(
            "--view", "WxH", .gimbal,
            help: ["image size of the camera on the gimbal (default 1280x720)"],
            key: .init(
                section: "gimbal", name: "view", kind: .value,
                summary: "image size of the simulated camera on the gimbal")
        ) { o, v in
            o.configuration.viewSize = try OptionValue.size(
                v, width: 64...7680, height: 64...4320, or: "--view expects WIDTHxHEIGHT between 64x64 and 7680x4320")
        },
        DockdOption(
            "--view-hfov", "DEG", .gimbal,
            help: ["its horizontal field of view (default 60)"],
            key: .init(section: "gimbal", name: "view_hfov_deg", kind: .value, summary: "its field of view")
        ) { o, v in o.configuration.viewFieldOfView = try OptionValue.number(v, "--view-hfov", in: 10...170) },
        DockdOption(
            "--max-speed", "DEG_S", .gimbal,
            help: ["simulated gimbal top speed (default 172)"],
            key: .init(
                section: "gimbal", name: "max_speed_deg_s", kind: .value, summary: "the simulated gimbal's top speed")
        ) { o, v in
            o.configuration.gimbalModel.maximumSpeed =
                try OptionValue.number(v, "--max-speed", in: 1...2000) * .pi / 180
        },
        DockdOption(
            "--accel", "DEG_S2", .gimbal,
            help: ["simulated gimbal acceleration limit (default 688)"],
            key: .init(
                section: "gimbal", name: "accel_deg_s2", kind: .value,
                summary: "the simulated gimbal's acceleration limit")
        ) { o, v in
            o.configuration.gimbalModel.maximumAcceleration =
                try OptionValue.number(v, "--accel", in: 1...20000) * .pi / 180
        },
        DockdOption(
            "--latency", "MS", .gimbal,
            help: ["simulated gimbal command latency (default 40)"],
            key: .init(
                section: "gimbal", name: "latency_ms", kind: .value, summary: "the simulated gimbal's command latency")
        ) { o, v in o.configuration.gimbalModel.latency = try OptionValue.number(v, "--latency", in: 0...1000) / 1000 },
        DockdOption(
            "--sim-mount", "normal|pan-inverted|tilt-inverted|inverted", .gimbal,
            help: [
                "how the simulated head is mounted: an inverted axis turns the",
                "camera the other way from what the head reads (to see the",
                "runaway guard, or dockctl calibrate, at work)",
            ],
            key: .init(
                section: "gimbal", name: "sim_mount", kind: .value,
                summary: "the simulated head's mount: `normal`, `pan-inverted`, `tilt-inverted` or `inverted`")
        ) { o, v in
            let mounts: [String: MountDirections] = [
                "normal": .normal, "pan-inverted": MountDirections(panInverted: true),
                "tilt-inverted": MountDirections(tiltInverted: true),
                "inverted": MountDirections(panInverted: true, tiltInverted: true),
            ]
            guard let mount = mounts[v] else {
                throw UsageError("--sim-mount must be normal, pan-inverted, tilt-inverted or inverted, got '\(v)'")
            }
            o.configuration.gimbalModel.mount = mount
        },
        DockdOption(
            "--pan-direction", "normal|inverted", .gimbal,
            help: [
                "inverted: the head turns the camera the other way from what it",
                "reads (hung upside down, or the controller set up so)",
            ],
            key: .init(section: "gimbal", name: "pan_direction", kind: .value, summary: "`normal` or `inverted`")
        ) { o, v in
            o.configuration.headDescribed = true
            o.configuration.mount.panInverted =
                try OptionValue.choice(v, AxisDirection.self, or: "--pan-direction must be normal or inverted")
                == .inverted
        },
        DockdOption(
            "--command-latency", "MS", .gimbal,
            help: ["the head's command latency as measured (dockctl calibrate); default:", "the device's own figure"],
            key: .init(
                section: "gimbal", name: "command_latency_ms", kind: .value,
                summary: "the head's measured command latency")
        ) { o, v in
            o.configuration.headDescribed = true
            o.configuration.commandLatency = try OptionValue.number(v, "--command-latency", in: 0...2000) / 1000
        },
        DockdOption(
            "--calibrate", "first-use|off", .gimbal,
            help: [
                "first-use (default): with a camera and a real head nobody",
                "described (no --pan-direction, --pan-scale, --command-latency…),",
                "learn it before tracking, as dockctl calibrate does, and keep it",
                "in --state-dir for later starts; off: use the configuration as given",
            ],
            key: .init(section: "gimbal", name: "calibrate", kind: .value, summary: "`first-use` or `off`")
        ) { o, v in
            guard v == "first-use" || v == "off" else {
                throw UsageError("--calibrate must be first-use or off, got '\(v)'")
            }
            o.configuration.calibrateAtFirstUse = v == "first-use"
        },
        DockdOption(
            "--battery-cells", "N", .gimbal,
            help: [
                "lithium cells in series in the head's battery (SimpleBGC reports",
                "its voltage); default: guessed from the voltage",
            ],
            key: .init(section: "gimbal", name: "battery_cells", kind: .value, summary: "cells in series, 1…12")
        ) { o, v in o.configuration.batteryGauge.cells = try OptionValue.integer(v, "--battery-cells", in: 1...12) },
        DockdOption(
            "--battery-low", "VOLTS", .gimbal,
            help: ["a cell under this voltage is a low battery (default 3.5)"],
            key: .init(section: "gimbal", name: "battery_low_volts", kind: .value, summary: "volts per cell")
        ) { o, v in
            o.configuration.batteryGauge.lowVoltsPerCell = try OptionValue.number(v, "--battery-low", in: 2.5...4.2)
        },
        DockdOption(
            "--state-dir", "DIR", .gimbal,
            help: [
                "where dockd keeps what it learnt of each head and camera",
                "(default: systemd's StateDirectory, else ~/.local/state/opendock)",
            ],
            key: .init(section: "gimbal", name: "state_dir", kind: .value, summary: "a directory")
        ) { o, v in o.configuration.stateDirectory = v },
        DockdOption(
            "--pan-scale", "X", .gimbal,
            help: ["degrees the camera pans per degree the head reads (dockctl", "calibrate measures it; default 1)"],
            key: .init(
                section: "gimbal", name: "pan_scale", kind: .value,
                summary: "the camera's pan per degree the head reads")
        ) { o, v in
            o.configuration.headDescribed = true
            o.configuration.scales.pan = try OptionValue.number(v, "--pan-scale", in: 0.1...10)
        },
        DockdOption(
            "--tilt-scale", "X", .gimbal,
            help: ["degrees the camera tilts per degree the head reads (default 1)"],
            key: .init(
                section: "gimbal", name: "tilt_scale", kind: .value,
                summary: "the camera's tilt per degree the head reads")
        ) { o, v in
            o.configuration.headDescribed = true
            o.configuration.scales.tilt = try OptionValue.number(v, "--tilt-scale", in: 0.1...10)
        },
        DockdOption(
            "--sim-units", "PAN,TILT", .gimbal,
            help: [
                "degrees the simulated head truly turns the camera per degree it",
                "reads, per axis (a head whose units are off; default 1,1)",
            ],
            key: .init(
                section: "gimbal", name: "sim_units", kind: .value,
                summary: "the simulated head's true turn per degree read, `PAN,TILT`")
        ) { o, v in
            let parts = v.split(separator: ",").map(String.init)
            guard parts.count == 2 else { throw UsageError("--sim-units expects PAN,TILT, e.g. 0.8,1.25; got '\(v)'") }
            o.configuration.gimbalModel.scales = AxisScales(
                pan: try OptionValue.number(parts[0], "--sim-units", in: 0.1...10),
                tilt: try OptionValue.number(parts[1], "--sim-units", in: 0.1...10))
        },
        DockdOption(
            "--tilt-direction", "normal|inverted", .gimbal,
            help: ["inverted: the head tilts the camera the other way from what it reads"],
            key: .init(section: "gimbal", name: "tilt_direction", kind: .value, summary: "`normal` or `inverted`")
        ) { o, v in
            o.configuration.headDescribed = true
            o.configuration.mount.tiltInverted =
                try OptionValue.choice(v, AxisDirection.self, or: "--tilt-direction must be normal or inverted")
                == .inverted
        },
        DockdOption(
            "--zoom", "off|auto", .gimbal,
            help: [
                "auto: drive the camera's optical zoom so the framed face keeps",
                "its size (--zoom-share), out when the subject moves fast or is",
                "lost; off (default): no zoom command, the zoom stays where it is",
            ],
            key: .init(section: "gimbal", name: "zoom", kind: .value, summary: "`off` or `auto`")
        ) { o, v in
            o.configuration.zoom = try OptionValue.choice(v, ZoomChoice.self, or: "--zoom must be off or auto")
        },
        DockdOption(
            "--zoom-share", "S", .gimbal,
            help: ["with --zoom auto: the framed face's height as a share of the", "picture's (default 0.15)"],
            key: .init(
                section: "gimbal", name: "zoom_face_share", kind: .value, summary: "face height / picture height")
        ) { o, v in o.configuration.zoomFaceShare = try OptionValue.number(v, "--zoom-share", in: 0.03...0.6) },
        DockdOption(
            "--sim-zoom", "X", .gimbal,
            help: [
                "give the simulated camera an optical zoom lens up to X times", "(1 doubling a second, 100 ms latency)",
            ],
            key: .init(
                section: "gimbal", name: "sim_zoom_max", kind: .value, summary: "the simulated lens's largest zoom")
        ) { o, v in
            o.configuration.simulatedZoomLens = ZoomLensModel(
                maximumFactor: try OptionValue.number(v, "--sim-zoom", in: 1.1...30))
        },
        DockdOption(
            "--buttons", "DEVICE", .gimbal,
            help: [
                "a remote's or the gimbal's keys (/dev/input/by-id/…-event-kbd):",
                "camera keys become shutter/flip/zoom events, play/pause switches",
                "system tracking, other keys are button events",
            ],
            key: .init(
                section: "gimbal", name: "buttons", kind: .path,
                summary: "an input device whose keys become accessory events (path)")
        ) { o, v in o.buttonsDevice = v },
        DockdOption(
            "--detector", Choices.placeholder(FaceDetectorChoice.self), .pipeline,
            help: ["face detector (default yunet; falls back to haar without the model)"],
            key: .init(
                section: "detection", name: "faces", kind: .value, summary: Choices.code(FaceDetectorChoice.self))
        ) { o, v in
            o.configuration.detector = try OptionValue.choice(
                v, FaceDetectorChoice.self, or: "--detector must be \(Choices.prose(FaceDetectorChoice.self))")
        },
        DockdOption(
            "--bodies", Choices.placeholder(BodyDetectorChoice.self), .pipeline,
            help: ["body detector, a few times a second (default ssdlite; falls back", "to hog without the model)"],
            key: .init(
                section: "detection", name: "bodies", kind: .value, summary: Choices.code(BodyDetectorChoice.self))
        ) { o, v in
            o.configuration.bodyDetector = try OptionValue.choice(
                v, BodyDetectorChoice.self, or: "--bodies must be \(Choices.prose(BodyDetectorChoice.self))")
        },
        DockdOption(
            "--track-objects", "LIST", .pipeline,
            help: ["also track these COCO classes as objects, e.g. cat,dog (YOLOX-nano)"],
            key: .init(
                section: "detection", name: "objects", kind: .names,
                summary: "list of COCO class names, `[\"cat\", \"dog\"]`")
        ) { o, v in
            let names = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for name in names where !COCOClasses.names.contains(name) {
                throw UsageError("--track-objects: '\(name)' is not a COCO class (e.g. cat, dog, cup, laptop)")
            }
            guard !names.isEmpty else { throw UsageError("--track-objects needs class names, e.g. cat,dog") }
            o.configuration.objectClasses = Set(names)
        },
        DockdOption(
            "--detect-width", "PX", .pipeline,
            help: ["width the detector runs at (default 320)"],
            key: .init(section: "detection", name: "width_px", kind: .value, summary: "detector input width")
        ) { o, v in o.configuration.detectorInputWidth = try OptionValue.integer(v, "--detect-width", in: 64...4096) },
        DockdOption(
            "--models", "DIR", .pipeline,
            help: ["look for model files here first (also $OPENDOCK_MODELS)"],
            key: .init(section: "detection", name: "models", kind: .path, summary: "model folder (path)")
        ) { o, v in o.configuration.modelsDirectory = v },
        DockdOption(
            "--rate", "HZ", .pipeline,
            help: ["track() calls per second, 10 to 30 (default 30)"],
            key: .init(section: "tracking", name: "rate_hz", kind: .value, summary: "`track` calls per second, 10–30")
        ) { o, v in o.configuration.trackRate = try OptionValue.number(v, "--rate", in: 10...30) },
        DockdOption(
            "--control-law", "dock|pid", .pipeline,
            help: ["dock: OpenDock's law (default); pid: a reproduction of", "obs-face-tracker's PID, for comparison"],
            key: .init(section: "tracking", name: "control_law", kind: .value, summary: "`dock` or `pid`")
        ) { o, v in
            o.configuration.controlLaw = try OptionValue.choice(
                v, ControlLawChoice.self, or: "--control-law must be dock or pid")
        },
        DockdOption(
            "--gain", "N", .pipeline,
            help: ["dock law: proportional gain per axis, s⁻¹ (default 5)"],
            key: .init(section: "tracking", name: "gain", kind: .value, summary: "the dock law's gain, s⁻¹")
        ) { o, v in
            let gain = try OptionValue.number(v, "--gain", in: 0.1...50)
            o.configuration.framing.yawGain = gain
            o.configuration.framing.pitchGain = gain
        },
        DockdOption(
            "--dead-band", "DEG", .pipeline,
            help: ["dock law: a subject closer than this is left alone (default 2)"],
            key: .init(section: "tracking", name: "dead_band_deg", kind: .value, summary: "the dock law's dead band")
        ) { o, v in o.configuration.framing.deadBand = try OptionValue.number(v, "--dead-band", in: 0...20) * .pi / 180
        },
        DockdOption(
            "--search", "on|off", .pipeline,
            help: [
                "dock law: when the subject is lost, follow its way out, then sweep around where",
                "it was last seen (default on; never while a client drives the motors)",
            ],
            key: .init(
                section: "tracking", name: "search", kind: .value,
                summary: "`\"on\"` or `\"off\"`: look for a lost subject")
        ) { o, v in
            guard v == "on" || v == "off" else { throw UsageError("--search must be on or off") }
            o.configuration.framing.search.enabled = v == "on"
        },
        DockdOption(
            "--home-after", "SECONDS", .pipeline,
            help: ["dock law: return home this long after losing the subject (default 8; 0 = stay)"],
            key: .init(
                section: "tracking", name: "home_after_s", kind: .value, summary: "seconds lost before going home")
        ) { o, v in
            let seconds = try OptionValue.number(v, "--home-after", in: 0...3600)
            o.configuration.framing.search.homeAfter = seconds == 0 ? nil : seconds
        },
        DockdOption(
            "--home", "YAW,PITCH", .pipeline,
            help: ["dock law: the home pose in degrees (default: the pose when tracking starts)"],
            key: .init(
                section: "tracking", name: "home_deg", kind: .value, summary: "`\"0,-5\"`: home yaw and pitch, degrees")
        ) { o, v in o.configuration.framing.home = try OptionValue.pose(v, "--home") },
        DockdOption(
            "--privacy", "YAW,PITCH", .pipeline,
            help: [
                "the privacy pose in degrees (default: turned as far from the room as the limits",
                "allow, and down); `dockctl privacy` goes there",
            ],
            key: .init(
                section: "tracking", name: "privacy_deg", kind: .value,
                summary: "`\"180,60\"`: privacy yaw and pitch, degrees")
        ) { o, v in o.configuration.privacyPose = try OptionValue.pose(v, "--privacy") },
        DockdOption(
            "--on-exit", "PRESET", .pipeline,
            help: [
                "where the head goes when dockd stops: stay (default: stops where it is), home, or",
                "privacy (turned away; a second Ctrl-C or SIGTERM stops it at once)",
            ],
            key: .init(
                section: "tracking", name: "on_exit", kind: .value, summary: "`stay`, `home` or `privacy`")
        ) { o, v in
            o.configuration.parkOnExit =
                v == "stay"
                ? nil : try OptionValue.choice(v, Preset.self, or: "--on-exit expects stay, home or privacy")
        },
        DockdOption(
            "--framing", "MODE", .pipeline,
            help: [
                "where the subject sits: automatic (default), center, left or right",
                "(a third from that side, leaving room for overlays)",
            ],
            key: .init(
                section: "tracking", name: "framing", kind: .value, summary: "`automatic`, `center`, `left`, `right`")
        ) { o, v in
            o.configuration.framingMode = try OptionValue.choice(
                v, FramingModeName.self, or: "--framing expects automatic, center, left or right"
            ).mode
        },
        DockdOption(
            "--region", "X,Y,W,H", .pipeline,
            help: [
                "keep subjects inside this part of the frame (0…1, origin upper",
                "left), e.g. 0.21875,0,0.5625,1 for a square crop of 16:9",
            ],
            key: .init(
                section: "tracking", name: "region", kind: .quadruple,
                summary: "`[x, y, width, height]`, normalized, origin upper left")
        ) { o, v in
            let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                FramingGeometry.region(fromUpperLeft: CGRect(x: x, y: y, width: w, height: h)) != nil
            else {
                throw UsageError(
                    "--region expects X,Y,W,H of the frame (0…1, origin upper left, at least 0.05 wide and high, inside the frame), got '\(v)'"
                )
            }
            o.configuration.regionOfInterest = CGRect(x: x, y: y, width: w, height: h)
        },
        DockdOption(
            "--threads", "N", .pipeline,
            help: ["threads OpenCV may use"],
            key: .init(section: "detection", name: "threads", kind: .value, summary: "OpenCV threads")
        ) { o, v in o.configuration.openCVThreads = try OptionValue.integer(v, "--threads", in: 1...64) },
        DockdOption(
            "--profile", "desktop|small", .pipeline,
            help: [
                "what the computer can carry (default desktop); small: 15 frames",
                "a second from a camera, OpenCV on one thread, bodies only",
                "while faces are not enough",
            ],
            key: .init(section: "detection", name: "profile", kind: .value, summary: "`desktop` or `small`")
        ) { o, v in
            o.configuration.profile = try OptionValue.choice(
                v, ComputerProfile.self, or: "--profile must be desktop or small")
        },
        DockdOption(
            "--audio", "FILE", .speakers,
            help: [
                "a WAV recorded with the video: follow whoever speaks (stereo gives",
                "the direction; generated scenes with speech synthesize their own)",
            ],
            key: .init(section: "speakers", name: "audio_file", kind: .path, summary: "a recording's WAV (path)")
        ) { o, v in o.configuration.audioFile = v },
        DockdOption(
            "--audio-device", "NAME", .speakers,
            help: [
                "with --camera: the microphones to listen to, an ALSA capture device",
                "(e.g. default, plughw:CARD=C920, or a card number, opened shared",
                "through dsnoop so other programs keep it; list them with arecord -L);",
                "a missing or unusable one is reported and tracking goes on by vision",
            ],
            key: .init(section: "speakers", name: "audio_device", kind: .value, summary: "an ALSA capture device")
        ) { o, v in
            o.configuration.audioDevice = CaptureDeviceName.resolve(v)
        },
        DockdOption(
            "--lips", "facemesh|motion|off", .speakers,
            help: [
                "read lips while following speakers: FaceMesh mouth opening",
                "(default; mouth motion when the model is missing), the cheaper", "mouth motion, or not at all",
            ],
            key: .init(section: "speakers", name: "lips", kind: .value, summary: "`facemesh`, `motion`, `off`")
        ) { o, v in
            o.configuration.lips = try OptionValue.choice(
                v, LipChoice.self, or: "--lips expects facemesh, motion or off")
        },
        DockdOption(
            "--no-audio", .speakers,
            help: ["frame by vision alone"],
            key: .init(
                section: "speakers", name: "enabled", kind: .negatedFlag, summary: "`false` frames by vision alone")
        ) { o, _ in o.configuration.useAudio = false },
        DockdOption(
            "--mics", "room|camera", .speakers,
            help: [
                "where the microphone pair is: fixed at the gimbal's pivot (default)",
                "or on the camera, turning with it",
            ],
            key: .init(section: "speakers", name: "mics", kind: .value, summary: "`room` or `camera`")
        ) { o, v in
            o.configuration.microphones.mounting = try OptionValue.choice(
                v, MicrophoneArray.Mounting.self, or: "--mics expects room or camera")
        },
        DockdOption(
            "--mic-order", "left-right|right-left", .speakers,
            help: [
                "which channel carries which microphone (default left-right); a pair wired",
                "the other way round sends the head to the person opposite whoever speaks",
            ],
            key: .init(
                section: "speakers", name: "mic_order", kind: .value, summary: "`left-right` or `right-left`")
        ) { o, v in
            o.configuration.microphones.order = try OptionValue.choice(
                v, MicrophoneArray.ChannelOrder.self, or: "--mic-order expects left-right or right-left")
        },
        DockdOption(
            "--mic-spacing", "M", .speakers,
            help: ["distance between the two microphones (default 0.15)"],
            key: .init(
                section: "speakers", name: "mic_spacing_m", kind: .value, summary: "metres between the microphones")
        ) { o, v in o.configuration.microphones.spacing = try OptionValue.number(v, "--mic-spacing", in: 0.02...2) },
        DockdOption(
            "--control-socket", "PATH", .control,
            help: [
                "serve the control API and status page on this Unix socket",
                "(default $OPENDOCK_SOCKET, else $XDG_RUNTIME_DIR/dockd.sock, else", "/tmp/dockd-UID.sock)",
            ],
            key: .init(section: "control", name: "socket", kind: .path, summary: "the control API's Unix socket (path)")
        ) { o, v in o.controlSocket = v },
        DockdOption(
            "--no-control", .control,
            help: ["no control API"],
            key: .init(section: "control", name: "enabled", kind: .negatedFlag, summary: "`false`: no control API")
        ) { o, _ in o.controlSocket = nil },
        DockdOption(
            "--http", "[HOST:]PORT", .control,
            help: [
                "also serve it on TCP (HOST defaults to 127.0.0.1); any address but", "loopback needs --token-file",
            ],
            key: .init(
                section: "control", name: "http", kind: .value,
                summary: "`\"127.0.0.1:8080\"` or a port: also serve on TCP")
        ) { o, v in
            guard let endpoint = ControlEndpoint.parseTCP(v) else {
                throw UsageError("--http expects [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080, got '\(v)'")
            }
            o.httpEndpoint = endpoint
        },
        DockdOption(
            "--token-file", "FILE", .control,
            help: ["TCP clients must send this file's first line as a bearer token"],
            key: .init(
                section: "control", name: "token_file", kind: .path,
                summary: "file whose first line TCP clients must send as a bearer token (path)")
        ) { o, path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let line = text.split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(in: .whitespaces) }
                ), line.count >= 8
            else {
                throw UsageError(
                    "--token-file \(path): cannot read a token of at least 8 characters from its first line")
            }
            o.token = line
        },
        DockdOption(
            "--video-out", "DEVICE", .videoOut,
            help: [
                "write every frame, clean, to a v4l2loopback device that meeting apps,",
                "OBS or a browser open as a camera (YUYV at the camera's size); load it",
                "with: modprobe v4l2loopback card_label=\"OpenDock camera\" exclusive_caps=1",
            ],
            key: .init(section: "video_out", name: "device", kind: .value, summary: "v4l2loopback node, `/dev/videoN`")
        ) { o, v in o.configuration.videoOut = VideoOutRequest(device: v, size: o.configuration.videoOut?.size) },
        DockdOption(
            "--video-out-size", "WxH", .videoOut,
            help: ["the virtual camera's size (default the camera's; same shape)"],
            key: .init(section: "video_out", name: "size", kind: .value, summary: "`\"1280x720\"`: its size")
        ) { o, v in
            let size = try OptionValue.size(
                v, width: 32...7680, height: 16...4320, or: "--video-out-size expects WIDTHxHEIGHT")
            o.configuration.videoOut = VideoOutRequest(device: o.configuration.videoOut?.device ?? "", size: size)
        },
        DockdOption(
            "--digital-framing", .videoOut,
            help: [
                "show a crop that follows the framed subject or group, panning and",
                "zooming smoothly like a PTZ head; with --gimbal none any fixed webcam",
                "becomes an auto-framing camera",
            ],
            key: .init(
                section: "video_out", name: "digital_framing", kind: .flag,
                summary: "`true`: the output is a crop following the subject")
        ) { o, _ in o.configuration.digitalFraming = o.configuration.digitalFraming ?? CropFollower.Settings() },
        DockdOption(
            "--max-zoom", "X", .videoOut,
            help: [
                "digital framing never enlarges the picture more than this (default 2;", "implies --digital-framing)",
            ],
            key: .init(section: "video_out", name: "max_zoom", kind: .value, summary: "largest digital zoom, 1…4")
        ) { o, v in
            var settings = o.configuration.digitalFraming ?? CropFollower.Settings()
            settings.maximumZoom = try OptionValue.number(v, "--max-zoom", in: 1...4)
            o.configuration.digitalFraming = settings
        },
        DockdOption(
            "--output", "FILE", .run,
            help: ["write an annotated video (MJPEG AVI) of what the camera saw"],
            key: .init(section: "run", name: "output_video", kind: .path, summary: "annotated video to write (path)")
        ) { o, v in o.configuration.outputVideo = v },
        DockdOption(
            "--output-keep", "MIB", .run,
            help: [
                "keep only the newest MIB of annotated video: it goes in parts of a",
                "quarter of that, and the oldest part is removed (an .avi --output)",
            ],
            key: .init(
                section: "run", name: "output_video_keep_mib", kind: .value,
                summary: "most annotated video kept, MiB; older parts are removed")
        ) { o, v in
            o.configuration.outputVideoKeepBytes =
                Int64(try OptionValue.integer(v, "--output-keep", in: 64...100_000_000)) * 1_048_576
        },
        DockdOption(
            "--trace", "FILE", .run,
            help: ["write a per-frame CSV trace (time, pose, commands, subjects)"],
            key: .init(section: "run", name: "trace", kind: .path, summary: "per-frame CSV trace to write (path)")
        ) { o, v in o.configuration.tracePath = v },
        DockdOption(
            "--fast", .run,
            help: ["run as fast as possible instead of at the source's frame rate"],
            key: .init(section: "run", name: "fast", kind: .flag, summary: "`true`: as fast as possible")
        ) { o, _ in o.configuration.realTime = false },
        DockdOption(
            "--loop", .run,
            help: ["play the demo scene again and again (a demo service)"],
            key: .init(section: "run", name: "loop", kind: .flag, summary: "`true`: the demo plays again and again")
        ) { o, _ in o.configuration.scene.loops = true },
        DockdOption(
            "--duration", "SECONDS", .run,
            help: ["stop after this much media time"],
            key: .init(section: "run", name: "duration_s", kind: .value, summary: "stop after this much media time")
        ) { o, v in o.configuration.maximumDuration = try OptionValue.number(v, "--duration", in: 0.01...1e7) },
        DockdOption(
            "--frames", "N", .run,
            help: ["stop after N frames"],
            key: .init(section: "run", name: "frames", kind: .value, summary: "stop after this many frames")
        ) { o, v in o.configuration.maximumFrames = try OptionValue.integer(v, "--frames", in: 1...Int(Int32.max)) },
        DockdOption(
            "--quiet", .run,
            help: ["no live status line"],
            key: .init(section: "run", name: "quiet", kind: .flag, summary: "`true`: no live status line")
        ) { o, _ in o.quiet = true },
        DockdOption(
            "--log-format", "text|json", .run,
            help: ["log lines as text (default) or one JSON object per event"],
            key: .init(
                section: "run", name: "log_format", kind: .value,
                summary: "`text` (default) or `json`: one JSON object per event")
        ) { o, v in
            o.logFormat = try OptionValue.choice(v, LogFormat.self, or: "--log-format expects text or json")
        },
        DockdOption(
            "--help", .run, aliases: ["-h"],
            help: ["this text"]
        ) { o, _ in o.showHelp = true },
        DockdOption(
            "--reference", .run,
            help: ["every option and configuration key as Markdown (docs/configuration.md)"]
        ) { o, _ in o.showReference = true },
    ]
}
