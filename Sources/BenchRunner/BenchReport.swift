import Bench
import DockCore
import Foundation
import PeerBench
import Pipeline
import Simulation

/// The benchmark's results for people (a text table, a markdown summary) and machines (JSON).
public struct BenchReport: Sendable {
    public let runs: [SceneRun]
    public let machine: String
    /// The Python peer comparison, when it ran.
    public var peer: PeerComparison?
    /// Capture → virtual camera, when digitally framed runs were asked for.
    public var outputLatency: OutputLatency?
    /// The commit the benchmark's build came from (`+` when its sources differed), when known.
    public var commit: String?

    public init(runs: [SceneRun], machine: String = BenchReport.describeMachine()) {
        self.runs = runs
        self.machine = machine
    }

    public var laws: [String] { runs.map(\.law).reduce(into: []) { if !$0.contains($1) { $0.append($1) } } }

    /// Columns of the text table; the markdown and JSON carry every figure.
    static let compactKeys = [
        "centering_rms_deg", "centering_rms_width_pct", "centering_p95_deg", "in_view_pct", "acquire_s", "settle_s",
        "overshoot_pct",
        "motor_starts_per_min", "reacquire_s", "out_of_view_s", "end_from_home_deg", "speaker_accuracy_pct",
        "switch_latency_s", "missed_switches",
        "false_switches", "right_speaker_after_grace_pct", "speaker_in_picture_pct",
        "framed_changes_per_speaker_change",
        "facing_nobody_s_per_min", "audio_direction_within_5_pct", "audio_noise_voiced_pct", "id_switches",
        "pipeline_p50_ms", "pipeline_p99_ms", "crop_centring_rms_deg",
        "crop_in_view_pct", "crop_still_jitter_px", "zoom_changes_per_min",
    ]

    /// The columns of `summary.md`: the headline figures, and those of the kinds of scene that
    /// have them (speakers, the room's sound, crops, zoom, microphone wiring); a column no scene
    /// has is left out.
    static let summaryKeys = [
        "centering_rms_deg", "in_view_pct", "acquire_s", "settle_s", "overshoot_pct", "motor_starts_per_min",
        "reacquire_s", "out_of_view_s", "end_from_home_deg", "speaker_accuracy_pct", "switch_latency_s",
        "false_switches", "right_speaker_after_grace_pct", "speaker_in_picture_pct",
        "framed_changes_per_speaker_change", "facing_nobody_s_per_min", "audio_direction_within_5_pct",
        "audio_noise_voiced_pct", "idf1", "pipeline_p99_ms",
        "crop_centring_rms_deg", "crop_in_view_pct", "face_size_error_pct", "face_size_in_band_pct",
        "lens_zooms_per_min", "mic_wiring_swapped", "mic_wiring_found_s", "mic_wiring_agree_pct",
    ]

    /// The summary's columns for these rows of figures: the summary keys any row has a value for.
    static func summaryColumns(_ rows: [[BenchFigure]]) -> [String] {
        summaryKeys.filter { key in rows.contains { $0.contains { $0.key == key && $0.value != nil } } }
    }

    /// Figures over every scene of one law: pooled samples where that is meaningful, else the
    /// worst scene (times to acquire, re-acquire; overshoot; peak memory) or the sum (counts).
    public static func overall(_ runs: [SceneRun]) -> [BenchFigure] {
        guard let first = runs.first else { return [] }
        let evaluations = runs.map(\.evaluation)
        let errors = Percentiles(evaluations.flatMap { $0.loop.centeringErrors().sorted })
        let fractions = Percentiles(evaluations.flatMap { $0.loop.centeringFractions.sorted })
        let minutes = max(evaluations.reduce(0) { $0 + $1.duration } / 60, 1e-9)
        let speaking = evaluations.flatMap { e in
            e.samples.indices.compactMap { i -> Bool? in
                guard let speaker = e.samples[i].people.first(where: \.speaking)?.id else { return nil }
                return e.framed[i].contains(speaker)
            }
        }
        let steps = evaluations.flatMap(\.steps)
        let frame = Percentiles(runs.flatMap { $0.summary.timings.samples[Stage.frame.rawValue] ?? [] })
        let pipeline = Percentiles(runs.flatMap { $0.summary.timings.samples[Stage.pipeline.rawValue] ?? [] })
        let detect = Percentiles(runs.flatMap { $0.summary.timings.samples[Stage.detect.rawValue] ?? [] })
        let wall = runs.reduce(0) { $0 + $1.summary.wallSeconds }
        let cpu = runs.compactMap(\.summary.cpuSeconds).reduce(0, +)
        let inView = evaluations.compactMap(\.loop.inViewShare)
        func worst(_ values: [Double?]) -> Double? { values.isEmpty ? nil : values.map { $0 ?? .infinity }.max() }
        let values: [String: Double?] = [
            "centering_rms_deg": errors.rootMeanSquare,
            "centering_p95_deg": errors.value(at: 95),
            "centering_rms_width_pct": fractions.rootMeanSquare.map { $0 * 100 },
            "centering_p95_width_pct": fractions.value(at: 95).map { $0 * 100 },
            "in_view_pct": inView.isEmpty ? nil : inView.reduce(0, +) / Double(inView.count) * 100,
            "acquire_s": worst(evaluations.map(\.loop.timeToAcquire)),
            "settle_s": steps.isEmpty
                ? nil
                : (steps.contains { $0.settleTime == nil }
                    ? .infinity : Percentiles(steps.compactMap(\.settleTime)).median),
            "overshoot_pct": steps.isEmpty ? nil : steps.map { $0.overshoot * 100 }.max(),
            "reversals_per_min": Double(evaluations.reduce(0) { $0 + $1.reversals }) / minutes,
            "motor_starts_per_min": Double(evaluations.reduce(0) { $0 + $1.motorStarts }) / minutes,
            "reacquire_s": worst(evaluations.flatMap(\.reacquireTimes)),
            "out_of_view_s": worst(evaluations.flatMap(\.outOfViewSpells)),
            "end_from_home_deg": evaluations.compactMap(\.endFromHome).max().map { $0 * 180 / .pi },
            "speaker_accuracy_pct": speaking.isEmpty
                ? nil : Double(speaking.filter { $0 }.count) / Double(speaking.count) * 100,
            "switch_latency_s": evaluations.allSatisfy(\.switchLatencies.isEmpty)
                ? nil
                : Percentiles(evaluations.flatMap(\.switchLatencies).map { $0 ?? .infinity }).median,
            "missed_switches": evaluations.allSatisfy(\.switchLatencies.isEmpty)
                ? nil
                : Double(evaluations.reduce(0) { $0 + $1.switchLatencies.filter { $0 == nil }.count }),
            "false_switches": Double(evaluations.reduce(0) { $0 + $1.falseSwitches }),
            "id_switches": Double(evaluations.reduce(0) { $0 + $1.identity.switches }),
            "idf1": {
                let v = evaluations.filter { $0.identity.objects > 0 }.map(\.identity.idf1)
                return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
            }(),
            "track_rate_pct": runs.compactMap(\.trackRateCompliance).min().map { $0 * 100 },
            "pipeline_p50_ms": pipeline.median, "pipeline_p99_ms": pipeline.p99,
            "frame_p50_ms": frame.median, "frame_p99_ms": frame.p99,
            "detect_p50_ms": detect.median, "detect_p99_ms": detect.p99,
            "dropped_frames": Double(runs.reduce(0) { $0 + $1.summary.droppedFrames }),
            "cpu_pct": wall > 0 ? 100 * cpu / wall : nil,
            "peak_rss_mb": runs.map(\.peakResidentBytes).max().map { $0 / 1_048_576 },
        ].merging(cropOverall(runs)) { a, _ in a }.merging(roomOverall(runs)) { a, _ in a }
        let fixed = runs.allSatisfy(\.fixedCamera)
        return first.figures.map { figure in
            var f = figure
            f.value = fixed && SceneRun.gimbalKeys.contains(figure.key) ? nil : values[figure.key] ?? nil
            return f
        }
    }

    /// The room figures over every scene: the worst scene's (a room is judged by its worst).
    static func roomOverall(_ runs: [SceneRun]) -> [String: Double?] {
        let evaluations = runs.map(\.evaluation)
        let audio = runs.compactMap(\.audioFrontEnd)
        let framing = evaluations.map(\.speakerFraming).filter { $0.rightSpeaker != nil }
        func worst(_ values: [Double?], _ pick: ([Double]) -> Double?) -> Double? { pick(values.compactMap { $0 }) }
        return [
            "right_speaker_pct": worst(framing.map(\.rightSpeaker)) { $0.min() }.map { $0 * 100 },
            "right_speaker_after_grace_pct": worst(framing.map(\.rightSpeakerAfterGrace)) { $0.min() }.map { $0 * 100 },
            "speaker_in_picture_pct": worst(framing.map(\.speakerInPicture)) { $0.min() }.map { $0 * 100 },
            "framed_changes_per_speaker_change": worst(framing.map(\.changesPerSpeakerChange)) { $0.max() },
            "facing_nobody_s_per_min": worst(framing.map(\.facingNobodyPerMinute)) { $0.max() },
            "audio_direction_error_deg": worst(audio.map(\.medianDirectionError)) { $0.max() },
            "audio_direction_p90_deg": worst(audio.map(\.p90DirectionError)) { $0.max() },
            "audio_direction_within_5_pct": worst(audio.map(\.directionWithin5)) { $0.min() }.map { $0 * 100 },
            "audio_speech_recall_pct": worst(audio.map(\.speechRecall)) { $0.min() }.map { $0 * 100 },
            "audio_noise_voiced_pct": worst(audio.map(\.noiseCalledVoiced)) { $0.max() }.map { $0 * 100 },
            // CPU is a cost, not a room's quality: the median scene's (timings are noisy).
            "audio_cpu_pct_core": worst(audio.map(\.cpuPercentOfCore)) { $0.isEmpty ? nil : $0.sorted()[$0.count / 2] },
        ]
    }

    /// The crop's figures over every digitally framed run: pooled errors and jitter, the mean
    /// share in view, zoom changes over the total time.
    static func cropOverall(_ runs: [SceneRun]) -> [String: Double?] {
        let framed = runs.compactMap(\.digitalFraming)
        guard !framed.isEmpty else { return [:] }
        let errors = Percentiles(framed.flatMap(\.centringErrors.sorted))
        let inView = framed.compactMap(\.inViewShare)
        let still = framed.filter { $0.stillFrames > 0 }
        let squares = still.reduce(0.0) { $0 + pow($1.stillJitterRMS ?? 0, 2) * Double($1.stillFrames) }
        let frames = still.reduce(0) { $0 + $1.stillFrames }
        let minutes = runs.reduce(0.0) { $0 + $1.evaluation.duration } / 60
        let zooms = zip(runs, framed).reduce(0.0) {
            $0 + ($1.1.zoomChangesPerMinute ?? 0) * $1.0.evaluation.duration / 60
        }
        return [
            "crop_centring_rms_deg": errors.rootMeanSquare,
            "crop_in_view_pct": inView.isEmpty ? nil : inView.reduce(0, +) / Double(inView.count) * 100,
            "crop_still_jitter_px": frames > 0 ? sqrt(squares / Double(frames)) : nil,
            "zoom_changes_per_min": minutes > 0 ? zooms / minutes : nil,
        ]
    }

    // MARK: - Text

    public var text: String {
        var lines = ["machine: \(machine)" + (commit.map { ", commit \($0)" } ?? "")]
        for law in laws {
            let mine = runs.filter { $0.law == law }
            lines.append("")
            lines.append("control law: \(law)")
            let rows = mine.map { ($0.scene, $0.figures) } + [("overall", Self.overall(mine))]
            let headers = rows[0].1.filter { Self.compactKeys.contains($0.key) }.map(\.label)
            let widths = headers.map { max($0.count, 6) }
            let nameWidth = max(12, rows.map(\.0.count).max() ?? 0)
            lines.append(
                "scene".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " "
                    + zip(headers, widths).map { pad($0, $1) }.joined(separator: " "))
            for (name, figures) in rows {
                let cells = zip(figures.filter { Self.compactKeys.contains($0.key) }, widths).map { pad($0.text, $1) }
                lines.append(
                    name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " " + cells.joined(separator: " "))
            }
            lines += Self.goalLines(mine, bullet: "  ")
        }
        if let peer { lines += ["", peer.text] }
        if let outputLatency { lines += ["", outputLatency.text] }
        return lines.joined(separator: "\n")
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    // MARK: - Markdown

    public var markdown: String {
        var lines = [
            "# OpenDock closed-loop benchmark", "",
            "Machine: \(machine)" + (commit.map { ", commit \($0)" } ?? "") + ". Every figure, per-stage timings "
                + "and plots are in report.html and report.json.", "",
        ]
        let proposed = runs.filter(\.truthIsProposed).map(\.scene).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        if !proposed.isEmpty {
            lines += ["Proposed truth, not checked (dockctl label): \(proposed.joined(separator: ", ")).", ""]
        }
        for law in laws {
            let mine = runs.filter { $0.law == law }
            let rows = mine.map { ($0.scene, $0.figures) } + [("**overall**", Self.overall(mine))]
            let keys = Self.summaryColumns(rows.map(\.1))
            func cells(_ figures: [BenchFigure]) -> [BenchFigure] {
                keys.compactMap { key in figures.first { $0.key == key } }
            }
            lines.append("## Control law `\(law)`")
            lines.append("")
            lines.append("| scene | " + cells(rows[0].1).map(\.label).joined(separator: " | ") + " | goals met |")
            lines.append("|---|" + keys.map { _ in "---:" }.joined(separator: "|") + "|---:|")
            for (index, (name, figures)) in rows.enumerated() {
                let goals = index < mine.count ? BenchGoal.check(mine[index]) : []
                let met = goals.isEmpty ? "" : "\(goals.filter(\.met).count)/\(goals.count)"
                lines.append("| \(name) | " + cells(figures).map(\.text).joined(separator: " | ") + " | \(met) |")
            }
            lines.append("")
            lines += Self.goalLines(mine, bullet: "- ")
            lines.append("")
        }
        if let outputLatency { lines += ["## Video out", "", outputLatency.text, ""] }
        if let peer {
            lines += ["## Python peer (same recording, same YuNet model and input size)", "", peer.markdown, ""]
        }
        lines.append(
            "Figures: centring error is the angle between the true face centre and the framing point, after acquisition, "
                + "in frames with the face in view; \"never\" = a step never settled or a hidden person was never chosen again; "
                + "\"-\" = the scene cannot show it. See docs/benchmark.md, \"The figures\".")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many of the law's goals its runs met, and each one they did not.
    static func goalLines(_ runs: [SceneRun], bullet: String) -> [String] {
        let checks = runs.flatMap { run in BenchGoal.check(run).map { (run, $0) } }
        guard !checks.isEmpty else { return [] }
        var lines = ["goals met: \(checks.filter(\.1.met).count) of \(checks.count)"]
        for (run, check) in checks where !check.met {
            let figure = run.figures.first { $0.key == check.goal.key }
            lines.append(
                "\(bullet)not met: \(run.scene), \(figure?.label ?? check.goal.key) \(figure?.text ?? "-") "
                    + "(goal \(check.goal.text), \(check.goal.source))")
        }
        return lines
    }

    // MARK: - JSON

    public var json: [String: Any] {
        var object: [String: Any] = ["machine": machine]
        if let commit { object["commit"] = commit }
        var byLaw: [String: Any] = [:]
        for law in laws {
            let mine = runs.filter { $0.law == law }
            var scenes: [String: Any] = [:]
            for run in mine {
                var entry: [String: Any] = [:]
                for figure in run.figures { entry[figure.key] = figure.jsonValue }
                var stages: [String: Any] = [:]
                for stage in run.summary.timings.order {
                    let p = run.summary.timings.percentiles(stage)
                    stages[stage] = ["p50_ms": p.median ?? 0, "p99_ms": p.p99 ?? 0]
                }
                entry["stages"] = stages
                entry["frames"] = run.summary.frames
                entry["steps"] = run.evaluation.steps.map {
                    [
                        "time_s": $0.time, "settle_s": $0.settleTime.map { $0 as Any } ?? "never",
                        "overshoot": $0.overshoot,
                    ]
                }
                entry["detector"] = run.summary.detectorName
                scenes[run.scene] = entry
            }
            var overall: [String: Any] = [:]
            for figure in Self.overall(mine) { overall[figure.key] = figure.jsonValue }
            byLaw[law] = ["scenes": scenes, "overall": overall]
        }
        object["laws"] = byLaw
        if let peer { object["python_peer"] = peer.json }
        return object
    }

    public var jsonText: String {
        let data =
            (try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// CPU model and count, from the kernel.
    public static func describeMachine() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            info.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
                $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
            } ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GiB"
    }
}
