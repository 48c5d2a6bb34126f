import DockCore
import DockKit
import Foundation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline

@Suite(.tags(.process), .notInFastRuns) struct DockdConfigFileTests {
    func write(_ text: String) throws -> String {
        let path = Fixtures.temporaryDirectory("config") + "/dockd.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every key of the file: the same configuration as the options it stands for; relative
    /// paths are taken from the file's folder.
    @Test func everyKeyBecomesItsOption() throws {
        let path = try write(
            """
            {
              "source": { "camera": "/dev/v4l/by-id/usb-Cam-video-index0", "size": "640x480", "fps": 15,
                          "calibration": "cam.yml", "hfov_deg": 78 },
              "gimbal": { "device": "visca-udp:192.0.2.7", "view": "640x360", "view_hfov_deg": 50,
                          "max_speed_deg_s": 90, "accel_deg_s2": 300, "latency_ms": 80 },
              "detection": { "faces": "rfb", "bodies": "none", "objects": ["cat", "dog"], "width_px": 480,
                             "models": "/opt/models", "threads": 2 },
              "tracking": { "rate_hz": 15, "control_law": "pid", "gain": 3, "dead_band_deg": 1.5,
                            "framing": "left", "region": [0.21875, 0, 0.5625, 1] },
              "speakers": { "audio_device": "plughw:CARD=C920", "mics": "camera", "mic_spacing_m": 0.12, "lips": "motion" },
              "run": { "output_video": "out/view.avi", "trace": "/tmp/t.csv", "duration_s": 60, "quiet": true }
            }
            """)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let o = try DockdOptions.parse(["--config", path])
        let c = o.configuration
        #expect(
            c.source == .camera("/dev/v4l/by-id/usb-Cam-video-index0")
                && c.captureSize == PixelSize(width: 640, height: 480))
        #expect(c.captureFrameRate == 15 && c.calibrationFile == folder + "/cam.yml" && c.sourceFieldOfView == 78)
        #expect(
            c.gimbal == GimbalChoice(parsing: "visca-udp:192.0.2.7") && c.viewSize == PixelSize(width: 640, height: 360)
        )
        #expect(c.viewFieldOfView == 50 && abs(c.gimbalModel.latency - 0.08) < 1e-12)
        #expect(
            c.detector == .rfb && c.bodyDetector == .none && c.objectClasses == ["cat", "dog"]
                && c.detectorInputWidth == 480)
        #expect(c.modelsDirectory == "/opt/models" && c.openCVThreads == 2)
        #expect(c.trackRate == 15 && c.controlLaw == .pid && c.framingMode == .left)
        #expect(c.regionOfInterest == CGRect(x: 0.21875, y: 0, width: 0.5625, height: 1))
        #expect(
            c.audioDevice == "plughw:CARD=C920" && c.microphones.mounting == .camera && c.microphones.spacing == 0.12
                && c.lips == .motion)
        #expect(
            c.outputVideo == folder + "/out/view.avi" && c.tracePath == "/tmp/t.csv" && c.maximumDuration == 60
                && o.quiet)
        #expect(c.useAudio && c.realTime)
    }

    /// docs/configuration.md ends with the reference the option table makes, every option
    /// `dockd --help` names is in it, and every key in it stands for an option dockd takes.
    @Test func theConfigurationReferenceIsTheOptionTable() throws {
        let page = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/configuration.md", encoding: .utf8)
        let marker = "<!-- The tables below are `dockd --reference`; Scripts/docs writes them. -->\n"
        let generated = try #require(page.range(of: marker).map { String(page[$0.upperBound...]) })
        #expect(generated == DockdOptions.reference, "docs/configuration.md is out of date: run Scripts/docs")
        let helpOptions = DockdOptions.help.split(whereSeparator: \.isWhitespace).map {
            $0.trimmingCharacters(in: .punctuationCharacters.subtracting(["-"]))
        }
        .filter { $0.hasPrefix("--") && $0.count > 2 }
        #expect(helpOptions.count > 60)
        for option in Set(helpOptions) {
            #expect(generated.contains("`\(option)"), "\(option) is not in the reference")
        }
        let keys = DockdConfigFile.sections.flatMap { section in section.keys.map { section.name + "." + $0.key.name } }
        #expect(Set(keys).count == keys.count && keys.count == DockdOption.all.filter { $0.key != nil }.count)
        for key in keys { #expect(generated.contains("`\(key)`"), "\(key) is not in the reference") }
        for (_, keys) in DockdConfigFile.sections {
            for (_, option) in keys { #expect(DockdOption.byName[option] != nil, "\(option)") }
        }
    }

    /// Options on the command line win; a source there replaces the file's.
    @Test func theCommandLineOverridesTheFile() throws {
        let path = try write(
            #"{"source": {"camera": "/dev/video0"}, "tracking": {"rate_hz": 15}, "speakers": {"enabled": false}}"#)
        let o = try DockdOptions.parse(["--config", path, "--rate", "20", "--demo"])
        #expect(o.configuration.trackRate == 20 && o.configuration.source == .demo && !o.configuration.useAudio)
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--config", path, "--config", path]) }
    }

    @Test(arguments: [
        (#"{"tracking": {"rate_hz": 45}}"#, "tracking.rate_hz: --rate must be between 10 and 30, got 45"),
        (#"{"tracking": {"rate": 20}}"#, "tracking.rate: unknown key (misspelt? see docs/configuration.md)"),
        (#"{"trackin": {}}"#, "trackin: unknown key"),
        (#"{"tracking": {"rate_hz": "fast"}}"#, "tracking.rate_hz: --rate expects a number, got 'fast'"),
        (#"{"tracking": {"region": [0.6, 0, 0.5, 1]}}"#, "tracking.region: --region expects X,Y,W,H"),
        (#"{"tracking": {"region": [0, 0, 1]}}"#, "tracking.region: expects [x, y, width, height]"),
        (
            #"{"detection": {"objects": ["cat", "unicorn"]}}"#,
            "detection.objects: --track-objects: 'unicorn' is not a COCO class"
        ),
        (#"{"detection": {"objects": [3]}}"#, "detection.objects[0]: expects a name"),
        (#"{"run": {"fast": "yes"}}"#, "run.fast: expects true or false"),
        (#"{"gimbal": {"device": "bgc"}}"#, "gimbal.device: --gimbal must be sim, none"),
        (
            #"{"source": {"camera": "/dev/video0", "file": "a.avi"}}"#,
            "--demo, --source and --camera exclude each other"
        ),
        (#"{"source": "demo"}"#, "source: expects an object"),
        ("[1, 2", "not valid JSON"),
        (String(repeating: "[", count: 40), "nested deeper than 32 levels"),
    ])
    func badFilesAreRefusedWithTheKeysPath(_ text: String, _ message: String) throws {
        let path = try write(text)
        #expect {
            try DockdOptions.parse(["--config", path])
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.contains(message) && !usage.message.contains("\n")
                && (message.hasPrefix("--demo") || usage.message.hasPrefix(path + ": "))
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect {
            try DockdOptions.parse(["--config", "/nonexistent/dockd.json"])
        } throws: { error in
            (error as? UsageError)?.message
                == "cannot read the configuration file /nonexistent/dockd.json: does it exist, and may dockd read it?"
        }
    }

    /// dockd itself: a bad file is refused before anything starts (exit 64, one line); a good
    /// one runs.
    @Test func dockdReadsItsConfigurationFile() throws {
        let bad = try write(#"{"tracking": {"rate_hz": 5}}"#)
        let refused = try ProcessRunner.run("dockd", ["--config", bad])
        #expect(refused.status == 64)
        #expect(refused.stderr == "dockd: \(bad): tracking.rate_hz: --rate must be between 10 and 30, got 5\n")
        let good = try write(
            #"{"source": {"demo": true}, "run": {"frames": 5, "fast": true, "quiet": true}, "detection": {"bodies": "none"}}"#
        )
        let ran = try ProcessRunner.run(
            "dockd", ["--config", good, "--media", Fixtures.repositoryRoot + "/.cache/media"])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout.contains("frames 5 in"))
    }
}
