import Bench
import Control
import DockCore
import Foundation
import GroundTruth
import Options
import Perception
import Pipeline
import Rigs

/// `dockctl bench`: the whole closed loop on the demo scene, as fast as the machine allows,
/// reporting throughput and per-stage wall time. Figures are medians and p99 over the frames of
/// one run; compare runs made in the same command, the machine is shared and noisy.
public struct BenchCommand {
    public var configuration = SessionConfiguration()
    public var runs = 3
    public var json = false

    /// Scene files (or directories of them); none = the demo throughput benchmark.
    public var scenePaths: [String] = []
    public var laws: [ControlLawChoice] = [.dock, .pid]
    /// Also run each scene on a fixed wide camera framed digitally (`--laws …,digital`).
    public var digitalFraming = false
    /// Also run each scene with the head and a crop of its camera's picture (`--laws …,dock+crop`).
    public var headAndCrop = false
    public var reportDirectory: String?
    /// An earlier report's directory to compare this run's figures with (`--compare`).
    public var compareDirectory: String?
    public var writeVideos = false
    public var peer = false
    public var peerRounds = 3
    public var peerScript = "Scripts/peer/yunet_peer.py"
    public var showProgress = true

    public static let help = """
        dockctl bench — the pipeline in closed loop on recorded or generated scenes, with figures.

        Usage: dockctl bench [SCENE.json | DIR]… [--laws dock,pid] [--report DIR [--compare DIR]] [--video] [--peer [--peer-rounds N]]
                             [--frames N] [--detector \(FaceDetectorChoice.allCases.map(\.rawValue).joined(separator: "|"))] [--detect-width PX] [--bodies \(BodyDetectorChoice.allCases.map(\.rawValue).joined(separator: "|"))]
                             [--track-objects LIST] [--threads N] [--profile desktop|small] [--no-audio] [--mics room|camera] [--mic-spacing M] [--mic-order left-right|right-left] [--lips facemesh|motion|off]
                             [--json] [--quiet]
               dockctl bench [--runs N] …            (no scene: throughput on the demo scene)

        Each scene (docs/scenes.md; `dockctl scenes DIR` writes the generated suite) runs through the
        virtual camera, detectors, tracker, feeder, control law and simulated gimbal, once per control
        law (dock = OpenDock's, pid = obs-face-tracker's; digital = no gimbal, a fixed 90° camera whose
        picture is a crop following the subject, measured on the crop; dock+crop = the head and a crop
        of its camera's picture together), against its ground truth:
        centring error, share in view, time to acquire, step settle and overshoot, reversals and motor
        starts per minute, re-acquisition after occlusion, speaker choice and switch latency, false and
        identity switches, track-rate compliance, per-stage latency, drops, CPU and peak memory.
        The same scene and seed give the same figures (timings and memory aside).

        --report DIR   writes report.html (one page, plots inline: where the head pointed against each
                       person, the centring error, every figure), report.json, summary.md, a trace CSV
                       per run and PNG plots (with --video, an annotated video per run)
        --compare DIR  an earlier --report directory: report.html and the output say which figures got
                       better and which worse (timing and memory listed, not judged)
        --peer         also runs the Python reference (python3-opencv, Scripts/peer/yunet_peer.py) and
                       OpenDock's detection path alternately on the first scene's recorded view and
                       compares CPU per frame, frame time and memory, and their detections
        """

    public init(arguments: [String]) throws(UsageError) {
        configuration.realTime = false
        var rest = arguments[...]
        var passThrough: [String] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs":
                guard let text = rest.popFirst(), let n = Int(text), (1...50).contains(n) else {
                    throw UsageError("--runs expects a whole number from 1 to 50")
                }
                runs = n
            case "--json": json = true
            case "--quiet": showProgress = false
            case "--video": writeVideos = true
            case "--peer": peer = true
            case "--peer-rounds":
                guard let text = rest.popFirst(), let n = Int(text), (1...20).contains(n) else {
                    throw UsageError("--peer-rounds expects a whole number from 1 to 20")
                }
                peerRounds = n
            case "--peer-script":
                guard let path = rest.popFirst() else { throw UsageError("--peer-script needs a path") }
                peerScript = path
            case "--report":
                guard let path = rest.popFirst() else { throw UsageError("--report needs a directory") }
                reportDirectory = path
            case "--compare":
                guard let path = rest.popFirst() else {
                    throw UsageError("--compare needs an earlier report's directory")
                }
                compareDirectory = path
            case "--laws":
                guard let text = rest.popFirst() else { throw UsageError("--laws needs a list such as dock,pid") }
                var chosen: [ControlLawChoice] = []
                for name in text.split(separator: ",") {
                    if name == "digital" {
                        digitalFraming = true
                        continue
                    }
                    if name == "dock+crop" {
                        headAndCrop = true
                        continue
                    }
                    guard let law = ControlLawChoice(rawValue: String(name)) else {
                        throw UsageError(
                            "--laws: unknown law '\(name)' (choose from \(ControlLawChoice.allCases.map(\.rawValue).joined(separator: ", ")), digital, dock+crop)"
                        )
                    }
                    if !chosen.contains(law) { chosen.append(law) }
                }
                guard !chosen.isEmpty || digitalFraming || headAndCrop else {
                    throw UsageError("--laws needs at least one law")
                }
                laws = chosen
            case "--no-audio": passThrough.append(argument)
            case "--frames", "--detector", "--detect-width", "--bodies", "--track-objects", "--threads", "--profile",
                "--models", "--media",
                "--mics", "--mic-spacing", "--mic-order", "--lips", "--zoom", "--zoom-share":
                guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                passThrough += [argument, value]
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError("unknown bench option '\(argument)' (see dockctl bench --help)")
                }
                scenePaths.append(argument)
            }
        }
        var parsed = try DockdOptions.parse(passThrough).configuration
        parsed.realTime = false
        parsed.keepFrameRecords = true  // the figures are computed from the per-frame records
        configuration = parsed
        if compareDirectory != nil && reportDirectory == nil {
            throw UsageError("--compare needs --report DIR: the comparison is written into the new report")
        }
        if scenePaths.isEmpty && (reportDirectory != nil || writeVideos || peer) {
            throw UsageError(
                "--report, --video and --peer need scene files (dockctl scenes DIR writes the generated suite)")
        }
    }

    /// The scene files named: files as given, directories as their *.json files in name order.
    public static func expand(_ paths: [String]) throws(SessionError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SessionError("scene \(path): no such file or directory")
            }
            if isDirectory.boolValue {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                    $0.hasSuffix(".json")
                }.sorted()
                guard !names.isEmpty else { throw SessionError("scene directory \(path) has no .json scene files") }
                files += names.map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Runs the benchmark; returns the report to print.
    public func run(progress: (String) -> Void) throws(SessionError) -> String {
        if !scenePaths.isEmpty { return try runScenes(progress: progress) }
        var summaries: [SessionSummary] = []
        var firstMetrics: LoopMetrics?
        for index in 1...runs {
            let session = try Pipeline(simulating: configuration)
            if index == 1, let fallback = session.detectorFallback { progress(fallback) }
            let measured = try session.runMeasured()
            let summary = measured.summary
            if index == 1 { firstMetrics = measured.metrics }
            progress(
                String(format: "run %d/%d: %d frames, %.1f fps", index, runs, summary.frames, summary.framesPerSecond))
            summaries.append(summary)
        }
        let stages = summaries[0].timings.order
        func medianOver(_ f: (SessionSummary) -> Double?) -> Double {
            Percentiles(summaries.compactMap(f)).median ?? .nan
        }
        let fps = medianOver { $0.framesPerSecond }
        let view = configuration.viewSize
        if json {
            var object: [String: Any] = [
                "runs": runs, "frames": summaries[0].frames, "fps": fps,
                "view": "\(view)", "detector": summaries[0].detectorName,
            ]
            var perStage: [String: Any] = [:]
            for stage in stages {
                perStage[stage] = [
                    "median_ms": medianOver { $0.timings.percentiles(stage).median },
                    "p99_ms": medianOver { $0.timings.percentiles(stage).p99 },
                ]
            }
            object["stages"] = perStage
            if let m = firstMetrics {
                object["in_view_share"] = m.inViewShare ?? 0
                object["centering_error_median_deg"] = m.centeringErrors().median ?? 0
            }
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        var lines = [
            String(
                format: "demo scene, view %@, detector %@, %d frames per run, %d runs", "\(view)" as NSString,
                summaries[0].detectorName as NSString, summaries[0].frames, runs),
            String(format: "throughput: %.1f fps (median over runs)", fps),
            "stage         median ms    p99 ms",
        ]
        for stage in stages {
            lines.append(
                stage.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(
                        format: " %10.2f %9.2f", medianOver { $0.timings.percentiles(stage).median },
                        medianOver { $0.timings.percentiles(stage).p99 }))
        }
        if let m = firstMetrics {
            lines.append(
                String(
                    format: "closed loop: target in view %.1f %%, centering error median %.2f°",
                    (m.inViewShare ?? 0) * 100, m.centeringErrors().median ?? .nan))
        }
        return lines.joined(separator: "\n")
    }
}
