import Bench
import Foundation
import Pipeline

/// This run's figures against an earlier report's (`--compare DIR`): every figure both have,
/// per law and scene and overall, judged better or worse by which way is good for it. Timing
/// and memory figures depend on the machine and its load; they are listed, not judged.
public struct BenchComparison: Sendable {
    public enum Verdict: String, Sendable { case better, worse, timing }

    public struct Change: Sendable {
        public var law: String
        /// A scene's name, or "overall".
        public var scene: String
        public var key: String
        public var label: String
        public var before: Double
        public var after: Double
        public var verdict: Verdict
    }

    /// Where the earlier report was read from.
    public let earlier: String
    /// The commits the earlier run and this one measured, when their reports say.
    public var commits: (before: String?, after: String?) = (nil, nil)
    public let changes: [Change]

    /// Figures a lower value of is better; the rest of the judged ones are better higher.
    static let lowerIsBetter: Set<String> = [
        "centering_rms_deg", "centering_p95_deg", "centering_rms_width_pct", "centering_p95_width_pct", "acquire_s",
        "settle_s", "overshoot_pct", "reversals_per_min", "motor_starts_per_min", "reacquire_s", "out_of_view_s",
        "end_from_home_deg", "switch_latency_s", "missed_switches", "false_switches", "id_switches",
        "framed_changes_per_speaker_change", "facing_nobody_s_per_min", "audio_noise_voiced_pct",
        "crop_centring_rms_deg", "crop_still_jitter_px", "zoom_changes_per_min", "lens_zooms_per_min",
        "mic_wiring_found_s", "dropped_frames",
    ]
    static let higherIsBetter: Set<String> = [
        "in_view_pct", "speaker_accuracy_pct", "right_speaker_after_grace_pct", "speaker_in_picture_pct",
        "audio_direction_within_5_pct", "idf1", "track_rate_pct", "crop_in_view_pct", "mic_wiring_agree_pct",
    ]
    static func isTiming(_ key: String) -> Bool {
        key.hasSuffix("_ms") || key.hasPrefix("cpu") || key.contains("cpu_pct") || key.hasSuffix("_mb")
    }

    /// The change of one figure, nil when it did not move beyond 1 % (and 0.01) or cannot be judged.
    static func verdict(_ key: String, before: Double, after: Double) -> Verdict? {
        if before == after { return nil }
        if before.isFinite, after.isFinite, abs(after - before) <= max(0.01, abs(before) * 0.01) { return nil }
        if isTiming(key) { return .timing }
        if lowerIsBetter.contains(key) { return after < before ? .better : .worse }
        if higherIsBetter.contains(key) { return after > before ? .better : .worse }
        return nil
    }

    /// Reads `directory/report.json` and compares `report`'s figures with it.
    public init(earlier directory: String, report: BenchReport) throws(SessionError) {
        let path = directory + "/report.json"
        guard let data = FileManager.default.contents(atPath: path),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let laws = root["laws"] as? [String: Any]
        else {
            throw SessionError("--compare: cannot read \(path) (a directory a bench --report wrote)")
        }
        earlier = directory
        commits = (root["commit"] as? String, report.commit)
        var changes: [Change] = []
        for law in report.laws {
            guard let old = laws[law] as? [String: Any] else { continue }
            let mine = report.runs.filter { $0.law == law }
            var rows: [(String, [BenchFigure], [String: Any]?)] = mine.map {
                ($0.scene, $0.figures, (old["scenes"] as? [String: Any])?[$0.scene] as? [String: Any])
            }
            // Overall figures pool the scenes: compared only over the same scenes.
            if Set(((old["scenes"] as? [String: Any]) ?? [:]).keys) == Set(mine.map(\.scene)) {
                rows.append(("overall", BenchReport.overall(mine), old["overall"] as? [String: Any]))
            }
            for (scene, figures, before) in rows {
                guard let before else { continue }
                for figure in figures {
                    guard let after = figure.value, let was = Self.number(before[figure.key]),
                        let verdict = Self.verdict(figure.key, before: was, after: after)
                    else { continue }
                    changes.append(
                        Change(
                            law: law, scene: scene, key: figure.key, label: figure.label, before: was, after: after,
                            verdict: verdict))
                }
            }
        }
        self.changes = changes
    }

    /// "DIR (commit a1b2c3d → e4f5a6b)": what the figures are against.
    public var heading: String {
        guard commits.before != nil || commits.after != nil else { return earlier }
        return "\(earlier) (commit \(commits.before ?? "unknown") → \(commits.after ?? "unknown"))"
    }

    /// A figure as report.json writes it: a number, "never" (infinite), or null.
    static func number(_ value: Any?) -> Double? {
        if let text = value as? String, text == "never" { return .infinity }
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        return number.doubleValue
    }

    /// One line a judged change: "dock, steps: RMS ° 1.20 → 0.95 (better)"; the timing and
    /// memory changes counted in one line (report.html lists them).
    public var lines: [String] {
        let judged = changes.filter { $0.verdict != .timing }.map { c in
            let format = { (v: Double) in v.isInfinite ? "never" : String(format: "%.2f", v) }
            return "\(c.law), \(c.scene): \(c.label) \(format(c.before)) → \(format(c.after)) (\(c.verdict.rawValue))"
        }
        let timing = changes.count - judged.count
        return judged
            + (timing == 0 ? [] : ["\(timing) timing and memory figures moved (the machine's load; not judged)"])
    }
}
