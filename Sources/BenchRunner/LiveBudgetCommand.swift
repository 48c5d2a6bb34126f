import Bench
import CameraSimulation
import DockCore
import Foundation
import Options
import Perception
import Pipeline
import Rigs

/// `dockctl bench-live`: what the live path costs a computer, the way `dockd --camera` runs
/// it — a 720p30 MJPEG webcam (a recording played in real time through the V4L2 path), no
/// gimbal — for each profile with faces and bodies and with faces only. Each run is a process
/// of its own, one after another, so that each one's CPU and peak memory are its own.
public struct LiveBudgetCommand {
    public var seconds = 60.0
    /// Each run is made this many times, in turn, and its median reported.
    public var repeats = 3
    public var report = "out/bench-live"
    public var profiles = ComputerProfile.allCases
    /// Options passed to every run (models, media, detectors).
    var passThrough: [String] = []
    /// Set in the child: the one run it measures.
    var single: (profile: ComputerProfile, bodies: Bool)?
    var recording: String?
    /// The program each run is made by: this one, unless told (a test runner is not it).
    public var toolsExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    /// Keep DIR/webcam.avi after the runs (to play it again with `--one`).
    var keepRecording = false

    public static let help = """
        dockctl bench-live — the live path's CPU, memory and latency on a 720p30 MJPEG webcam.

        Usage: dockctl bench-live [--seconds S] [--repeat N] [--report DIR] [--profiles desktop,small]
                                  [--keep-recording] [--models DIR] [--media DIR]
               dockctl bench-live --one PROFILE:bodies|faces --recording FILE [--seconds S]

        Records the demo scene through a fixed camera at 1280×720 (MJPEG, quality 80, with a
        sensor's noise: about 120 KB a frame, as a webcam sends it) into DIR/webcam.avi, then
        plays it in real time at 30 fps through
        OpenDock's V4L2 capture path (a scripted V4L2 device stands in for the kernel) and runs
        dockd's live pipeline on it with no gimbal (a dry run), for S seconds (default 60), once
        per profile with faces and bodies and once with faces only, each in a process of its own,
        N times in turn (default 3). Prints and writes DIR/summary.md, the median of each figure:
        CPU % of one core, peak resident memory, capture → command p50/p99, frames processed and
        thinned, body detector runs per second. The desktop profile is OpenDock as it ran before
        profiles: every frame, float SSDLite five times a second, OpenCV on every core.
        --one runs one of them in this process on a recording kept with --keep-recording, and
        prints its figures as one JSON line.
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seconds":
                guard let text = rest.popFirst(), let s = Double(text), s >= 5, s <= 3600 else {
                    throw UsageError("--seconds expects seconds from 5 to 3600")
                }
                seconds = s
            case "--repeat":
                guard let text = rest.popFirst(), let n = Int(text), (1...9).contains(n) else {
                    throw UsageError("--repeat expects a whole number from 1 to 9")
                }
                repeats = n
            case "--report":
                guard let folder = rest.popFirst() else { throw UsageError("--report needs a folder") }
                report = folder
            case "--profiles":
                guard let text = rest.popFirst() else { throw UsageError("--profiles needs names, e.g. desktop,small") }
                profiles = try text.split(separator: ",").map { name throws(UsageError) in
                    guard let profile = ComputerProfile(rawValue: String(name)) else {
                        throw UsageError("--profiles: '\(name)' is not a profile (desktop, small)")
                    }
                    return profile
                }
            case "--one":
                // The child's run: PROFILE:faces or PROFILE:bodies.
                let parts = rest.popFirst()?.split(separator: ":").map(String.init) ?? []
                guard parts.count == 2, let profile = ComputerProfile(rawValue: parts[0]),
                    ["faces", "bodies"].contains(parts[1])
                else { throw UsageError("--one expects PROFILE:faces or PROFILE:bodies") }
                single = (profile, parts[1] == "bodies")
            case "--keep-recording": keepRecording = true
            case "--recording":
                guard let path = rest.popFirst() else { throw UsageError("--recording needs a file") }
                recording = path
            case "--models", "--media", "--detector", "--bodies":
                guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                passThrough += [argument, value]
            default:
                throw UsageError("unknown bench-live option '\(argument)' (see dockctl bench-live --help)")
            }
        }
    }

    /// The runs, in the order they are made.
    var runs: [(profile: ComputerProfile, bodies: Bool)] {
        profiles.flatMap { [($0, true), ($0, false)] }
    }

    public func run(progress: (String) -> Void) throws(SessionError) -> String {
        if let single, let recording {
            return try Self.figuresLine(measure(single, recording: recording))
        }
        try? FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
        let recording = report + "/webcam.avi"
        progress("bench-live: recording the demo scene at 1280×720 as a webcam's MJPEG into \(recording)")
        try record(into: recording)
        var measured: [[[String: Double]]] = Array(repeating: [], count: runs.count)
        for round in 1...repeats {
            for (index, (profile, bodies)) in runs.enumerated() {
                progress("bench-live: \(Self.label(profile, bodies)), \(Int(seconds)) s (\(round) of \(repeats))")
                measured[index].append(try child(profile: profile, bodies: bodies, recording: recording))
            }
        }
        let rows = zip(runs, measured).map { run, figures in
            (Self.label(run.profile, run.bodies), Self.medians(figures))
        }
        if !keepRecording { try? FileManager.default.removeItem(atPath: recording) }
        let summary = Self.table(rows, seconds: seconds, repeats: repeats)
        do { try summary.write(toFile: report + "/summary.md", atomically: true, encoding: .utf8) } catch {
            throw SessionError("cannot write \(report)/summary.md: \(error.localizedDescription)")
        }
        return summary
    }

    /// The demo scene through a fixed 1280×720 camera, clean, as MJPEG at quality 80: what a
    /// webcam sends. 20 s, looped by the player.
    func record(into path: String) throws(SessionError) {
        var c = try configuration()
        c.source = .demo
        c.gimbal = .dryRun
        c.viewSize = PixelSize(width: 1280, height: 720)
        c.bodyDetector = .none
        c.realTime = false
        c.annotateOutput = false
        c.keepFrameRecords = false
        c.outputVideo = path
        c.maximumDuration = 20
        // A webcam's sensor noise: without it the scene's smooth photos compress to a fifth of
        // a real 720p frame's size, and decode as much faster.
        c.scene.noiseSigma = Self.sensorNoise
        _ = try Pipeline(simulating: c).run()
    }

    static let sensorNoise = 12.0

    func configuration() throws(SessionError) -> SessionConfiguration {
        do { return try DockdOptions.parse(passThrough).configuration } catch {
            throw SessionError(error.message)
        }
    }

    /// One run in this process: the recording as a live camera, the profile's pipeline.
    func measure(_ run: (profile: ComputerProfile, bodies: Bool), recording: String) throws(SessionError)
        -> [String: Double]
    {
        let webcam: RecordedWebcam
        do { webcam = try RecordedWebcam(recording: recording) } catch { throw SessionError(error.message) }
        defer { webcam.stop() }
        var c = try configuration()
        c.profile = run.profile
        if !run.bodies { c.bodyDetector = .none }
        c.source = .camera(webcam.device.path)
        c.captureSize = webcam.size
        c.captureFrameRate = Double(webcam.frameRate)
        c.gimbal = .dryRun
        c.keepFrameRecords = false
        c.maximumDuration = seconds
        let summary = try Pipeline(live: c, system: webcam.device).run()
        let command = summary.timings.percentiles(.captureToCommand)
        return [
            "cpu_pct": summary.cpuSeconds.map { 100 * $0 / max(summary.wallSeconds, 1e-9) } ?? .nan,
            "peak_rss_mib": ProcessResources.peakResidentBytes() / 1_048_576,
            "capture_command_p50_ms": command.median ?? .nan,
            "capture_command_p99_ms": command.p99 ?? .nan,
            "frames_fed": Double(webcam.framesFed),
            "frames_processed": Double(summary.accounting.processed),
            "frames_thinned": Double(summary.accounting.source.thinned),
            "body_runs_per_s": Double(summary.bodyRuns) / max(summary.wallSeconds, 1e-9),
            "seconds": summary.wallSeconds,
        ]
    }

    /// Runs one measurement in a process of its own and reads its figures.
    func child(profile: ComputerProfile, bodies: Bool, recording: String) throws(SessionError) -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: toolsExecutable)
        process.arguments =
            ["bench-live", "--seconds", String(seconds), "--one", "\(profile.rawValue):\(bodies ? "bodies" : "faces")"]
            + ["--recording", recording] + passThrough
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { throw SessionError("cannot start a bench-live run: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0,
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Double]
        else {
            throw SessionError("the \(profile.rawValue) run failed (status \(process.terminationStatus)): \(line)")
        }
        return object
    }

    static func label(_ profile: ComputerProfile, _ bodies: Bool) -> String {
        "\(profile.rawValue), \(bodies ? "faces and bodies" : "faces only")"
    }

    /// Each figure's median over the runs.
    static func medians(_ runs: [[String: Double]]) -> [String: Double] {
        let keys = Set(runs.flatMap(\.keys))
        return Dictionary(
            uniqueKeysWithValues: keys.compactMap { key in
                Percentiles(runs.compactMap { $0[key] }).median.map { (key, $0) }
            })
    }

    static func figuresLine(_ figures: [String: Double]) -> String {
        let finite = figures.filter { $0.value.isFinite }
        let data = (try? JSONSerialization.data(withJSONObject: finite, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func table(_ rows: [(String, [String: Double])], seconds: Double, repeats: Int) -> String {
        let columns: [(String, String, String)] = [
            ("CPU % of one core", "cpu_pct", "%.1f"), ("peak RSS MiB", "peak_rss_mib", "%.1f"),
            ("capture→command p50 ms", "capture_command_p50_ms", "%.2f"),
            ("capture→command p99 ms", "capture_command_p99_ms", "%.2f"),
            ("frames processed", "frames_processed", "%.0f"), ("frames thinned", "frames_thinned", "%.0f"),
            ("body runs/s", "body_runs_per_s", "%.2f"),
        ]
        var lines = [
            "| run | " + columns.map(\.0).joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---:|", count: columns.count),
        ]
        for (label, figures) in rows {
            let cells = columns.map { _, key, format in figures[key].map { String(format: format, $0) } ?? "-" }
            lines.append("| \(label) | " + cells.joined(separator: " | ") + " |")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        lines += [
            "",
            String(
                format:
                    "Each figure: the median of %d runs of %.0f s of a 1280×720 MJPEG webcam at 30 fps, no gimbal, each run a process of its own, one after another, on %d cores. The process is dockctl-tools, which links what dockd links.",
                repeats, seconds, cores),
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
