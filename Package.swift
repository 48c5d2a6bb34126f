// swift-tools-version:6.0
import PackageDescription

// OpenCV headers live under include/opencv4; only the libraries the shim uses are linked. Video
// and image files (videoio, imgcodecs: some 250 libraries between them) live in a shared library
// of their own that the shim loads the first time a file is opened.
let openCVLibraries = ["opencv_core", "opencv_imgproc", "opencv_objdetect", "opencv_dnn"]
let openCVMediaLibraries = ["opencv_core", "opencv_imgproc", "opencv_imgcodecs", "opencv_videoio"]
let shimInclude = Context.packageDirectory + "/Sources/CVision/include"

let package = Package(
    name: "OpenDock",
    products: [
        .library(name: "DockKit", targets: ["DockKit", "DockKitInProcess"]),
        .library(name: "Spatial", targets: ["Spatial"]),
        .executable(name: "dockd", targets: ["dockd"]),
        .executable(name: "dockctl", targets: ["dockctl"]),
        .executable(name: "dockctl-tools", targets: ["dockctl-tools"]),
        .library(name: "OpenDockMedia", type: .dynamic, targets: ["CVisionMedia"]),
    ],
    targets: [
        // C shims
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .systemLibrary(name: "CNettle", path: "Sources/CNettle"),
        .target(name: "CV4L2", path: "Sources/CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CSerial", path: "Sources/CSerial"),
        .target(name: "CJPEG", path: "Sources/CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CALSA", path: "Sources/CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .target(
            name: "CVision",
            path: "Sources/CVision",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
            linkerSettings: openCVLibraries.map { .linkedLibrary($0) }
        ),
        .target(
            name: "CVisionMedia",
            path: "Sources/CVisionMedia",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-I" + shimInclude, "-O2", "-fvisibility=hidden"])],
            linkerSettings: openCVMediaLibraries.map { .linkedLibrary($0) }
        ),

        // Pure core and stages
        // Angles and rotations, named as Apple's Spatial names them.
        .target(name: "Spatial"),
        .target(name: "DockCore", dependencies: ["CNettle", "Spatial"]),
        .target(name: "Imaging", dependencies: ["DockCore", "CVision", "CTurboJPEG"]),
        .target(name: "Capture", dependencies: ["DockCore", "Imaging", "CJPEG", "CVision", "CTurboJPEG", "CV4L2"]),
        .target(name: "Perception", dependencies: ["DockCore", "Imaging", "CVision"]),
        .target(name: "Tracking", dependencies: ["DockCore"]),
        .target(name: "Audio", dependencies: ["DockCore", "CVision", "CALSA"]),
        .target(name: "Motion", dependencies: ["DockCore", "CSerial"]),
        .target(name: "Control", dependencies: ["DockCore", "Motion"]),
        // What a generated scene holds (people, their paths and speech, the room): values only.
        .target(name: "SceneModel", dependencies: ["DockCore"]),
        .target(name: "Simulation", dependencies: ["Audio", "DockCore", "Imaging", "SceneModel"]),
        // The motor engine: a dock in this process (rate contract, the control law's call, centring,
        // presets, motions, battery, parking) over one motor backend.
        .target(name: "DockEngine", dependencies: ["Control", "DockCore", "Motion", "Tracking"]),
        .target(name: "DockKit", dependencies: ["ControlClient", "DockCore", "Spatial"]),
        // The engine's docks in a DockKit program's own process: LocalDock as an InProcessDock,
        // and the simulated gimbal OPENDOCK_GIMBAL=sim docks, registered as the program loads.
        .target(name: "CDockKitInProcess", path: "Sources/CDockKitInProcess"),
        .target(name: "DockKitInProcess", dependencies: ["CDockKitInProcess", "DockCore", "DockEngine", "DockKit"]),
        .target(name: "Bench", dependencies: ["DockCore", "Tracking"]),
        .target(name: "CameraOutputs", dependencies: ["Capture", "CV4L2", "DockCore", "Imaging"]),
        .target(name: "MotorDevices", dependencies: ["Capture", "DockCore", "Motion"]),

        // The service: one pipeline for every rig; the control API's server and client; the
        // daemon's options, configuration file and logs; the benchmark's runners.
        .target(
            name: "Pipeline",
            dependencies: [
                "Audio", "CameraOutputs", "Capture", "Control", "DockCore", "DockEngine", "Imaging", "Motion",
                "MotorDevices", "Perception", "SceneModel", "Tracking",
            ]
        ),
        // The benchmark's subscriber to the engine: where the people really were, frame by frame.
        .target(name: "GroundTruth", dependencies: ["Bench", "DockCore", "Pipeline", "Simulation"]),
        // The rigs the engine runs on: live devices, and the simulation with its ground truth.
        .target(
            name: "Rigs",
            dependencies: [
                "Audio", "Calibration", "CameraOutputs", "Capture", "DockCore", "GroundTruth", "Motion",
                "MotorDevices", "Pipeline", "Simulation",
            ]),
        .target(name: "ControlClient", dependencies: ["DockCore"]),
        .target(
            name: "ControlServer",
            dependencies: [
                "CMicroHTTPD", "ControlClient", "DockCore", "DockEngine", "DockKit", "DockKitInProcess", "Imaging",
                "Motion", "Pipeline",
            ]),
        // Scene files (docs/scenes.md), read and checked: for the benchmark and `dockd --scene`.
        .target(
            name: "SceneFiles", dependencies: ["Bench", "Capture", "DockCore", "Motion", "Pipeline", "Simulation"]),
        // dockd's options and configuration file: the one place options become a session's
        // configuration, for dockd and the benchmarks alike.
        .target(
            name: "Options",
            dependencies: [
                "Audio", "CameraOutputs", "Control", "ControlClient", "DockCore", "DockEngine", "DockKit", "Motion",
                "Perception", "Pipeline", "SceneFiles",
            ]),
        // What only the daemon does: its log, its status line, systemd's protocol.
        .target(name: "Daemon", dependencies: ["DockCore", "Options", "Pipeline"]),
        // Cameras in software, for the tests and the live benchmarks.
        .target(name: "CameraSimulation", dependencies: ["CV4L2", "Capture", "DockCore"]),
        .target(
            name: "Soak",
            dependencies: [
                "Bench", "CameraOutputs", "ControlClient", "ControlServer", "DockCore", "DockEngine", "DockKit",
                "Imaging", "Options", "Pipeline", "Rigs",
            ]),
        // How a head is built and wired, learnt by turning it and watching its camera.
        .target(name: "Calibration", dependencies: ["DockCore", "Imaging", "Motion"]),
        .target(
            name: "BenchRunner",
            dependencies: [
                "Bench", "CameraOutputs", "CameraSimulation", "Capture", "Control", "ControlClient", "ControlServer",
                "DockCore", "GroundTruth", "Imaging", "Options", "PeerBench", "Perception", "Pipeline", "Rigs",
                "SceneFiles", "Simulation", "Tracking",
            ]),
        // The detection path measured on its own: accuracy on labelled sets, decoding speed.
        .target(
            name: "DetectionBench",
            dependencies: ["Bench", "Capture", "DockCore", "Imaging", "Perception", "Pipeline", "Simulation"]),
        // OpenDock's detection path against the Python peer on one recording.
        .target(
            name: "PeerBench", dependencies: ["Bench", "Capture", "DockCore", "Imaging", "Perception", "Pipeline"]),

        // Executables
        .executableTarget(
            name: "dockd",
            dependencies: [
                "Bench", "ControlServer", "Daemon", "DockCore", "DockEngine", "DockKit", "Options", "Pipeline", "Rigs",
            ]),
        // dockctl links no OpenCV: its tool verbs run in dockctl-tools, which it finds beside itself.
        .executableTarget(name: "dockctl", dependencies: ["ControlClient", "DockCore"]),
        .executableTarget(
            name: "dockctl-tools",
            dependencies: [
                "Audio", "Bench", "BenchRunner", "Calibration", "Capture", "ControlClient", "DetectionBench",
                "DockCore", "DockKit", "Motion", "MotorDevices", "Options", "PeerBench", "Perception", "Pipeline",
                "Rigs", "SceneFiles", "Soak",
            ]),

        // DockKit programs as a client writes them (README, "DockKit examples"); the tests run them.
        .executableTarget(
            name: "example-sweep", dependencies: ["DockKit", "DockKitInProcess"], path: "Examples/Sweep"),
        .executableTarget(
            name: "example-look-around", dependencies: ["DockKit", "DockKitInProcess", "Spatial"],
            path: "Examples/LookAround"),
        .executableTarget(
            name: "example-button-panorama", dependencies: ["DockKit", "DockKitInProcess"],
            path: "Examples/ButtonPanorama"),
        .executableTarget(
            name: "example-custom-tracking", dependencies: ["DockKit", "DockKitInProcess"],
            path: "Examples/CustomTracking"),
        .executableTarget(
            name: "example-dock-control-service", dependencies: ["DockKit", "DockKitInProcess"],
            path: "Examples/DockControlService"),
        .executableTarget(
            name: "example-subject-selection", dependencies: ["DockKit", "DockKitInProcess"],
            path: "Examples/SubjectSelection"),
        .executableTarget(
            name: "example-battery-monitor", dependencies: ["DockKit", "DockKitInProcess"],
            path: "Examples/BatteryMonitor"),
        .executableTarget(
            name: "example-event-monitor", dependencies: ["DockKit", "DockKitInProcess"], path: "Examples/EventMonitor"),
        // A program with vision of its own: dockd's frames, OpenCV's YuNet, custom tracking.
        .executableTarget(
            name: "example-face-follow",
            dependencies: ["Capture", "DockCore", "DockKit", "DockKitInProcess", "Perception"],
            path: "Examples/FaceFollow"),

        // libFuzzer targets (Scripts/fuzz builds them with -sanitize=fuzzer; plain builds do nothing).
        .executableTarget(name: "fuzz-codecs", dependencies: ["Motion"], path: "Fuzz/codecs"),
        .executableTarget(name: "fuzz-jpeg", dependencies: ["Capture", "DockCore"], path: "Fuzz/jpeg"),
        .executableTarget(name: "fuzz-avi", dependencies: ["Capture"], path: "Fuzz/avi"),
        .executableTarget(
            name: "fuzz-options", dependencies: ["MotorDevices", "Options", "Pipeline"], path: "Fuzz/options"),
        .executableTarget(name: "fuzz-files", dependencies: ["Bench"], path: "Fuzz/files"),
        .executableTarget(name: "fuzz-scenes", dependencies: ["SceneFiles"], path: "Fuzz/scenes"),
        .executableTarget(name: "fuzz-config", dependencies: ["Options"], path: "Fuzz/config"),
        .executableTarget(
            name: "fuzz-control",
            dependencies: ["ControlClient", "ControlServer", "DockEngine", "DockKit", "Motion", "Pipeline"],
            path: "Fuzz/control"),

        // Tests
        .target(
            name: "TestSupport",
            dependencies: ["CameraSimulation", "DockCore", "Imaging", "Capture", "CV4L2", "Motion", "CSerial"],
            path: "Tests/TestSupport"),
        .testTarget(name: "DockCoreTests", dependencies: ["DockCore", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["DockCore", "Imaging", "TestSupport"]),
        .testTarget(
            name: "CameraOutputsTests",
            dependencies: ["CameraOutputs", "Capture", "CV4L2", "DockCore", "Imaging", "TestSupport"]),
        .testTarget(
            name: "CaptureTests",
            dependencies: [
                "CameraSimulation", "Capture", "CV4L2", "DockCore", "Imaging", "Motion", "Perception", "TestSupport",
            ]),
        .testTarget(
            name: "PerceptionTests", dependencies: ["Capture", "DockCore", "Imaging", "Perception", "TestSupport"]),
        .testTarget(name: "TrackingTests", dependencies: ["DockCore", "TestSupport", "Tracking"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "DockCore", "TestSupport"]),
        .testTarget(name: "MotionTests", dependencies: ["DockCore", "Motion", "TestSupport"]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "DockCore", "Motion", "TestSupport"]),
        .testTarget(name: "CalibrationTests", dependencies: ["Calibration", "TestSupport"]),
        .testTarget(
            name: "SimulationTests",
            dependencies: ["Audio", "DockCore", "Imaging", "Perception", "Simulation", "TestSupport"]),
        .testTarget(
            name: "DockKitTests",
            dependencies: [
                "DockCore", "DockEngine", "DockKit", "DockKitInProcess", "Motion", "Spatial", "TestSupport", "Tracking",
            ]),
        .testTarget(name: "LayoutTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "SceneFilesTests",
            dependencies: ["Bench", "DockCore", "Pipeline", "SceneFiles", "Simulation", "TestSupport"]),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "DockCore", "TestSupport", "Tracking"]),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Audio", "Bench", "BenchRunner", "Calibration", "CameraOutputs", "CameraSimulation", "Capture",
                "Control", "DockCore", "dockctl-tools", "DockEngine", "GroundTruth", "Motion", "MotorDevices",
                "Options", "Pipeline", "Rigs", "SceneFiles", "Simulation", "TestSupport", "Tracking",
            ]),
        .testTarget(
            name: "MotorDevicesTests",
            dependencies: [
                "CameraOutputs", "CameraSimulation", "Capture", "CV4L2", "DockCore", "Imaging", "Motion",
                "MotorDevices", "Options", "Pipeline", "Rigs", "TestSupport",
            ]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "BenchRunner", "CameraOutputs", "CameraSimulation", "Capture", "Control", "ControlClient",
                "ControlServer", "Daemon", "DockCore", "dockctl", "dockctl-tools", "DockEngine", "DockKit", "Imaging",
                "Motion", "Options", "Perception", "Pipeline", "Rigs", "SceneFiles", "TestSupport",
            ]),
        .testTarget(
            name: "BenchRunnerTests",
            dependencies: [
                "Bench", "BenchRunner", "Capture", "ControlClient", "ControlServer", "DetectionBench", "DockCore",
                "dockctl-tools", "DockKit", "Imaging", "Motion", "Options", "PeerBench", "Pipeline", "Rigs",
                "SceneFiles", "Simulation", "Soak", "TestSupport", "Tracking",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
