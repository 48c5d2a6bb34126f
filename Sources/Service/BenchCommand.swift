import Bench
import Foundation

/// `dockctl bench`: the whole closed loop on the demo scene, as fast as the machine allows,
/// reporting throughput and per-stage wall time. Figures are medians and p99 over the frames of
/// one run; compare runs made in the same command, the machine is shared and noisy.
public struct BenchCommand {
    public var configuration = SessionConfiguration()
    public var runs = 3
    public var json = false

    public static let help = """
    dockctl bench — run the full pipeline on the demo scene and print fps and per-stage latency.

    Usage: dockctl bench [--runs N] [--frames N] [--detector yunet|rfb|haar|lbp] [--detect-width PX]
                         [--bodies ssdlite|yolox|hog|none] [--track-objects LIST] [--threads N] [--json]

    Each run processes the generated demo scene (real photos, a walking subject) through the
    virtual camera, detector, tracker, feeder, control law and simulated gimbal without pacing.
    The figures are the median over runs of each run's median and p99 (milliseconds).
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
            case "--frames", "--detector", "--detect-width", "--bodies", "--track-objects", "--threads", "--models", "--media":
                guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                passThrough += [argument, value]
            default:
                throw UsageError("unknown bench option '\(argument)' (see dockctl bench --help)")
            }
        }
        var parsed = try DockdOptions.parse(passThrough).configuration
        parsed.realTime = false
        configuration = parsed
    }

    /// Runs the benchmark; returns the report to print.
    public func run(progress: (String) -> Void) throws(SessionError) -> String {
        var summaries: [SessionSummary] = []
        for index in 1...runs {
            let session = try ClosedLoopSession(configuration: configuration)
            if index == 1, let fallback = session.detectorFallback { progress(fallback) }
            let summary = try session.run()
            progress(String(format: "run %d/%d: %d frames, %.1f fps", index, runs, summary.frames, summary.framesPerSecond))
            summaries.append(summary)
        }
        let stages = summaries[0].timings.order
        func medianOver(_ f: (SessionSummary) -> Double?) -> Double { Percentiles(summaries.compactMap(f)).median ?? .nan }
        let fps = medianOver { $0.framesPerSecond }
        let view = configuration.viewSize
        if json {
            var object: [String: Any] = ["runs": runs, "frames": summaries[0].frames, "fps": fps,
                                         "view": "\(view)", "detector": summaries[0].detectorName]
            var perStage: [String: Any] = [:]
            for stage in stages {
                perStage[stage] = ["median_ms": medianOver { $0.timings.percentiles(stage).median },
                                   "p99_ms": medianOver { $0.timings.percentiles(stage).p99 }]
            }
            object["stages"] = perStage
            if let m = summaries[0].metrics {
                object["in_view_share"] = m.inViewShare ?? 0
                object["centering_error_median_deg"] = m.centeringErrors().median ?? 0
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        var lines = [String(format: "demo scene, view %@, detector %@, %d frames per run, %d runs", "\(view)" as NSString,
                            summaries[0].detectorName as NSString, summaries[0].frames, runs),
                     String(format: "throughput: %.1f fps (median over runs)", fps),
                     "stage         median ms    p99 ms"]
        for stage in stages {
            lines.append(stage.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %10.2f %9.2f", medianOver { $0.timings.percentiles(stage).median },
                                  medianOver { $0.timings.percentiles(stage).p99 }))
        }
        if let m = summaries[0].metrics {
            lines.append(String(format: "closed loop: target in view %.1f %%, centering error median %.2f°",
                                (m.inViewShare ?? 0) * 100, m.centeringErrors().median ?? .nan))
        }
        return lines.joined(separator: "\n")
    }
}
