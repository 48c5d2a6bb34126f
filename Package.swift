// swift-tools-version:6.0
import PackageDescription

// OpenCV headers live under include/opencv4; only the libraries the shim uses are linked.
let openCVLibraries = ["opencv_core", "opencv_imgproc", "opencv_imgcodecs", "opencv_videoio", "opencv_objdetect", "opencv_dnn"]

let package = Package(
    name: "OpenDock",
    products: [
        .library(name: "DockKit", targets: ["DockKit"]),
        .executable(name: "dockd", targets: ["dockd"]),
        .executable(name: "dockctl", targets: ["dockctl"]),
    ],
    targets: [
        // C shims
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .target(name: "CV4L2", path: "Sources/CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CSerial", path: "Sources/CSerial"),
        .target(name: "CALSA", path: "Sources/CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .target(
            name: "CVision",
            path: "Sources/CVision",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
            linkerSettings: openCVLibraries.map { .linkedLibrary($0) }
        ),

        // Pure core and stages
        .target(name: "CDigest", path: "Sources/CDigest"),
        .target(name: "DockCore", dependencies: ["CDigest"]),
        .target(name: "Imaging", dependencies: ["DockCore", "CVision"]),
        .target(name: "Capture", dependencies: ["DockCore", "Imaging", "CVision", "CTurboJPEG", "CV4L2"]),
        .target(name: "Vision", dependencies: ["DockCore", "Imaging", "CVision"]),
        .target(name: "Tracking", dependencies: ["DockCore"]),
        .target(name: "Audio", dependencies: ["DockCore", "CVision", "CALSA"]),
        .target(name: "Motion", dependencies: ["DockCore", "CSerial"]),
        .target(name: "Simulation", dependencies: ["DockCore", "Imaging", "Motion", "Audio"]),
        .target(name: "DockKit", dependencies: ["DockCore", "Capture", "Vision", "Tracking", "Motion"]),
        .target(name: "Bench", dependencies: ["DockCore", "Tracking"]),
        .target(
            name: "Service",
            dependencies: ["DockCore", "Capture", "Vision", "Tracking", "Motion", "Simulation", "DockKit", "Bench", "Imaging", "Audio", "CMicroHTTPD"]
        ),

        // Executables
        .executableTarget(name: "dockd", dependencies: ["Service", "DockKit"]),
        .executableTarget(name: "dockctl", dependencies: ["Service", "Bench", "DockKit"]),

        // DockKit programs as a client writes them (README, "DockKit examples"); the tests run them.
        .executableTarget(name: "example-sweep", dependencies: ["DockKit"], path: "Examples/Sweep"),
        .executableTarget(name: "example-look-around", dependencies: ["DockKit"], path: "Examples/LookAround"),
        .executableTarget(name: "example-button-panorama", dependencies: ["DockKit"], path: "Examples/ButtonPanorama"),
        .executableTarget(name: "example-custom-tracking", dependencies: ["DockKit"], path: "Examples/CustomTracking"),

        // libFuzzer targets (Scripts/fuzz builds them with -sanitize=fuzzer; plain builds do nothing).
        .executableTarget(name: "fuzz-codecs", dependencies: ["Motion"], path: "Sources/fuzz-codecs"),
        .executableTarget(name: "fuzz-jpeg", dependencies: ["Capture", "DockCore"], path: "Sources/fuzz-jpeg"),
        .executableTarget(name: "fuzz-options", dependencies: ["Service"], path: "Sources/fuzz-options"),
        .executableTarget(name: "fuzz-files", dependencies: ["Bench"], path: "Sources/fuzz-files"),
        .executableTarget(name: "fuzz-scenes", dependencies: ["Service"], path: "Sources/fuzz-scenes"),
        .executableTarget(name: "fuzz-config", dependencies: ["Service"], path: "Sources/fuzz-config"),
        .executableTarget(name: "fuzz-control", dependencies: ["Service", "DockKit", "Motion"], path: "Sources/fuzz-control"),

        // Tests
        .target(name: "TestSupport", dependencies: ["DockCore", "Imaging", "Capture", "CV4L2", "Motion", "CSerial"], path: "Tests/TestSupport"),
        .testTarget(name: "DockCoreTests", dependencies: ["DockCore", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Imaging", "TestSupport", "CTurboJPEG", "CV4L2"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "Capture", "TestSupport"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "TestSupport"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "TestSupport"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "TestSupport", "CSerial"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Imaging", "Vision", "Audio", "TestSupport"]),
        .testTarget(name: "DockKitTests", dependencies: ["DockKit", "Tracking", "Simulation", "TestSupport"]),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "Tracking", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "Bench", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
