import Bench
import Control
import DockCore
import Foundation
import PeerBench
import Perception
import Pipeline
import SceneFiles

/// A one-line progress bar on standard error when it is a terminal; a line per finished run otherwise.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    let terminal = isatty(STDERR_FILENO) == 1

    func show(done: Int, fraction: Double, label: String) {
        guard enabled, terminal else { return }
        let overall = (Double(done) + min(max(fraction, 0), 1)) / Double(max(total, 1))
        let width = 30
        let filled = Int(overall * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "\r[%@] %3.0f %%  %d/%d  %@\u{1B}[K", bar, overall * 100, done + 1, total,
                    label
                ).utf8))
    }

    func finish(_ line: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(((terminal ? "\r\u{1B}[K" : "") + "dockctl: " + line + "\n").utf8))
    }
}

extension BenchCommand {
    /// Runs every scene with every law, then writes the report; returns the text (or JSON) to print.
    func runScenes(progress: (String) -> Void) throws(SessionError) -> String {
        // Every scene is read and checked before anything runs.
        var scenes: [BenchScene] = []
        for file in try Self.expand(scenePaths) {
            var scene = try BenchScene.load(path: file)
            if scenes.contains(where: { $0.name == scene.name }) { scene.name += "-\(scenes.count + 1)" }
            scenes.append(scene)
        }
        if let directory = reportDirectory {
            for sub in ["", "/traces", "/plots"] + (writeVideos ? ["/videos"] : []) {
                do {
                    try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
                } catch {
                    throw SessionError(
                        "cannot create the report directory \(directory + sub): \(error.localizedDescription)")
                }
            }
        }
        let rigs: [(law: ControlLawChoice, framing: SceneRun.Framing)] =
            laws.map { ($0, .motors) } + (digitalFraming ? [(.dock, .fixedCrop)] : [])
            + (headAndCrop ? [(.dock, .motorsAndCrop)] : [])
        let bar = ProgressBar(total: scenes.count * rigs.count, enabled: showProgress)
        var runs: [SceneRun] = []
        for scene in scenes {
            for (law, framing) in rigs {
                // A fixed camera is rendered inside a generated world; a recording is a camera already.
                if framing == .fixedCrop, case .video = scene.world {
                    bar.finish(
                        "\(scene.name): no digital run (a recording is its own camera; digital framing runs on generated scenes)"
                    )
                    continue
                }
                let name = framing.name(for: law)
                let label = "\(scene.name) (\(name))"
                let video = writeVideos ? reportDirectory.map { "\($0)/videos/\(scene.name)-\(name).avi" } : nil
                let done = runs.count
                let run = try SceneRun.run(
                    scene, base: configuration, law: law, framing: framing, outputVideo: video,
                    measuresAudioFrontEnd: true
                ) { fraction in
                    bar.show(done: done, fraction: fraction, label: label)
                }
                if done == 0, let fallback = run.detectorFallback { progress(fallback) }
                if law == rigs[0].law && framing == rigs[0].framing, let note = run.audioNote {
                    bar.finish("\(scene.name): \(note)")
                }
                bar.finish(
                    String(
                        format: "%@: %d frames, %.1f fps", label as NSString, run.summary.frames,
                        run.summary.framesPerSecond))
                if let directory = reportDirectory {
                    // The front end hears a scene the same way under every law: one audio trace each.
                    let firstOfScene = done == 0 || runs.last?.scene != scene.name
                    try writeTraces(
                        of: run, named: "\(scene.name)-\(name)", scene: scene.name, audio: firstOfScene, in: directory)
                }
                runs.append(run)
            }
        }
        var report = BenchReport(runs: runs)
        report.commit = BuildCommit.describe()
        if peer { report.peer = try runPeer(on: scenes[0], progress: progress) }
        if digitalFraming {
            progress("the real-time rig at 720p30 with video out for 20 s, for the output latency")
            report.outputLatency = try OutputLatency.measure(base: configuration)
        }
        let changes =
            try reportDirectory.map { directory throws(SessionError) in
                try writeReport(report, runs: runs, to: directory, progress: progress)
            } ?? []
        return json ? report.jsonText : ([report.text] + changes).joined(separator: "\n")
    }

    /// Writes the report's files into `directory`; returns the lines that say what changed
    /// against the earlier report (`--compare`), if one was named.
    private func writeReport(
        _ report: BenchReport, runs: [SceneRun], to directory: String, progress: (String) -> Void
    ) throws(SessionError) -> [String] {
        // The earlier report is read first: it may be the directory this one replaces.
        let comparison = try compareDirectory.map { dir throws(SessionError) in
            try BenchComparison(earlier: dir, report: report)
        }
        _ = try BenchPlots.write(runs, to: directory + "/plots")
        let page = BenchHTMLReport(report: report, directory: directory, comparison: comparison)
        for (name, text) in [
            ("report.html", page.html), ("report.json", report.jsonText + "\n"), ("summary.md", report.markdown),
        ] {
            try Self.write(text, to: "\(directory)/\(name)")
        }
        progress(
            "report written to \(directory) (report.html, report.json, summary.md, traces/, plots/\(writeVideos ? ", videos/" : ""))"
        )
        guard let comparison else { return [] }
        return ["", "against \(comparison.heading):"]
            + (comparison.lines.isEmpty ? ["  no figure moved by more than 1 %"] : comparison.lines.map { "  " + $0 })
    }

    /// A run's per-frame trace, and with `audio` the front end's windows for its scene.
    private func writeTraces(
        of run: SceneRun, named name: String, scene: String, audio: Bool, in directory: String
    ) throws(SessionError) {
        let path = "\(directory)/traces/\(name).csv"
        do { try TraceWriter.write(run.summary.trace, to: path) } catch {
            throw SessionError("cannot write the trace \(path): \(error.localizedDescription) (is the disk full?)")
        }
        if audio, let frontEnd = run.audioFrontEnd {
            try Self.write(frontEnd.csv, to: "\(directory)/traces/\(scene)-audio.csv")
        }
    }

    static func write(_ text: String, to path: String) throws(SessionError) {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw SessionError("cannot write \(path): \(error.localizedDescription) (is the disk full?)")
        }
    }

    /// Records the scene's closed-loop view (what the gimbal's camera saw, unannotated) and runs
    /// OpenDock's detection path and the Python peer on it, alternately.
    func runPeer(on scene: BenchScene, progress: (String) -> Void) throws(SessionError) -> PeerComparison {
        guard FileManager.default.isReadableFile(atPath: peerScript) else {
            throw SessionError(
                "--peer: \(peerScript) not found; run from the repository root or give --peer-script PATH")
        }
        let directory = reportDirectory ?? (FileManager.default.currentDirectoryPath + "/.cache/bench")
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let video = directory + "/peer-view-\(scene.name).avi"
        var base = configuration
        base.annotateOutput = false
        progress("recording the view of \(scene.name) for the peer comparison: \(video)")
        _ = try SceneRun.run(scene, base: base, law: laws[0], outputVideo: video)
        let model: String
        do { model = try ModelRegistry.standard(userDirectory: configuration.modelsDirectory).resolve("yunet") } catch {
            throw SessionError("--peer needs the YuNet model: \(error) (run Scripts/setup)")
        }
        let width = String(configuration.detectorInputWidth)
        let threads = configuration.openCVThreads.map { ["--threads", String($0)] } ?? []
        let dockctl = OwnExecutable.path
        progress("peer comparison: \(peerRounds) rounds of OpenDock and python3-opencv, alternating")
        var comparison = try PeerComparison.run(
            video: video, rounds: peerRounds,
            ours: { () throws(SessionError) -> Data in
                try PeerComparison.output(
                    of: dockctl, ["peer-run", video, "--model", model, "--detect-width", width] + threads)
            },
            python: { () throws(SessionError) -> Data in
                try PeerComparison.output(
                    of: "/usr/bin/python3", [peerScript, video, model, "--detect-width", width] + threads)
            })
        progress("the real-time rig for 30 s (dockctl soak), for capture→command latency")
        let bodies = ["--bodies", configuration.bodyDetector.rawValue]
        comparison.liveLatency = try PeerComparison.liveLatency(
            fromSoakJSON: try PeerComparison.output(
                of: dockctl, ["soak", "--minutes", "0.5", "--json", "--detect-width", width] + bodies + threads))
        return comparison
    }
}
