import Bench
import DockCore
import Foundation
import Imaging
import Pipeline

/// The benchmark's figures for people, as PNG: centring error over time with speech, hidden
/// stretches and switches marked; the head's yaw against each person's bearing; step responses
/// of each law; frame-time histograms.
enum BenchPlots {
    static let lawColors: [String: Color] = [
        "dock": Color(red: 20, green: 110, blue: 220), "pid": Color(red: 230, green: 120, blue: 20),
    ]
    static let speakerColors = [
        Color(red: 170, green: 220, blue: 170), Color(red: 240, green: 200, blue: 150),
        Color(red: 200, green: 180, blue: 240), Color(red: 240, green: 170, blue: 190),
    ]

    /// Centring error (degrees) over time for one run.
    static func errorOverTime(_ run: SceneRun) -> Plot {
        let e = run.evaluation
        var plot = Plot(
            title: "\(run.scene) (\(run.law)): centring error of the target", xLabel: "time (s)", yLabel: "error (deg)")
        plot.series = [
            Plot.Series(
                name: "centring error",
                points: e.samples.indices.map { i in
                    let sample = e.loop.samples[i]
                    let inView = sample.targetCenterX.map { $0 >= 0 && $0 < e.settings.viewWidth } ?? false
                    return (sample.time, inView ? e.loop.centeringErrorDegrees(sample) : nil)
                }, color: lawColors[run.law] ?? .black)
        ]
        // Speech: a strip per speaker along the bottom; hidden target: grey behind everything.
        let ids = Array(Set(e.samples.flatMap { $0.people.map(\.id) })).sorted()
        for (row, id) in ids.enumerated() {
            for span in spans(in: e, where: { $0.people.first { $0.id == id }?.speaking ?? false }) {
                plot.spans.append(
                    Plot.Span(
                        from: span.0, to: span.1, color: speakerColors[row % speakerColors.count], height: 0.05,
                        row: row))
            }
            if e.samples.contains(where: { $0.people.contains { $0.id == id && $0.speaking } }) {
                plot.notes.append(("person \(id) speaking", speakerColors[row % speakerColors.count]))
            }
        }
        for span in spans(in: e, where: { s in s.people.contains { $0.hidden } }) {
            plot.spans.append(Plot.Span(from: span.0, to: span.1, color: Color(red: 215, green: 215, blue: 215)))
        }
        if e.samples.contains(where: { s in s.people.contains { $0.hidden } }) {
            plot.notes.append(("target hidden", Color(red: 215, green: 215, blue: 215)))
        }
        // A red line where the chosen person changed.
        for i in e.framed.indices.dropFirst()
        where e.framed[i] != e.framed[i - 1] && !e.framed[i].isEmpty && !e.framed[i - 1].isEmpty {
            plot.markers.append((e.samples[i].time, .red))
        }
        if !plot.markers.isEmpty { plot.notes.append(("chosen person changed", .red)) }
        plot.yRange = 0...max(10, (plot.series[0].points.compactMap(\.y).max() ?? 0) * 1.1)
        return plot
    }

    /// Each person's line, darker than their speech strip.
    static let personColors = [
        Color(red: 40, green: 150, blue: 60), Color(red: 200, green: 120, blue: 30),
        Color(red: 120, green: 80, blue: 200), Color(red: 200, green: 60, blue: 110),
    ]

    /// Where the head pointed against each person's bearing over time, with who speaks along the
    /// bottom: a head that sits at nobody's bearing (a fan's, a reflection's) shows at a glance.
    static func bearings(_ run: SceneRun) -> Plot {
        let e = run.evaluation
        let degrees = 180 / Double.pi
        var plot = Plot(
            title: "\(run.scene) (\(run.law)): where the head pointed", xLabel: "time (s)", yLabel: "yaw (deg)")
        let ids = Array(Set(e.samples.flatMap { $0.people.map(\.id) })).sorted()
        for (row, id) in ids.enumerated() {
            let color = personColors[row % personColors.count]
            plot.series.append(
                Plot.Series(
                    name: "person \(id)",
                    points: e.samples.map { sample in
                        (sample.time, sample.people.first { $0.id == id }.map { $0.yaw * degrees })
                    }, color: color, thickness: 1))
            for span in spans(in: e, where: { $0.people.first { $0.id == id }?.speaking ?? false }) {
                plot.spans.append(
                    Plot.Span(
                        from: span.0, to: span.1, color: speakerColors[row % speakerColors.count], height: 0.05,
                        row: row))
            }
        }
        plot.series.append(
            Plot.Series(
                name: "head (\(run.law))", points: e.samples.map { ($0.time, $0.yaw * degrees) },
                color: lawColors[run.law] ?? .black, thickness: 3))
        if !plot.spans.isEmpty { plot.notes.append(("strips: who speaks", speakerColors[0])) }
        return plot
    }

    /// Gimbal yaw and the target's direction around each step, every law on one chart.
    static func stepResponse(_ runs: [SceneRun]) -> Plot? {
        guard let first = runs.first, !first.evaluation.steps.isEmpty else { return nil }
        var plot = Plot(title: "\(first.scene): step response (yaw)", xLabel: "time (s)", yLabel: "yaw (deg)")
        let degrees = 180 / Double.pi
        let e = first.evaluation
        plot.series.append(
            Plot.Series(
                name: "target direction",
                points: e.samples.indices.map { i in
                    (
                        e.samples[i].time,
                        e.targets[i].flatMap { id in e.samples[i].people.first { $0.id == id } }.map {
                            $0.yaw * degrees
                        }
                    )
                }, color: Color(red: 120, green: 120, blue: 120), thickness: 1))
        for run in runs {
            plot.series.append(
                Plot.Series(
                    name: "gimbal, law \(run.law)", points: run.evaluation.samples.map { ($0.time, $0.yaw * degrees) },
                    color: lawColors[run.law] ?? .black))
        }
        plot.markers = e.settings.steps.map { ($0, .red) }
        return plot
    }

    /// Distribution of the pipeline's time per frame (detection, tracking, control) per law,
    /// 1 ms bins up to the pooled p99.5.
    static func latencyHistogram(_ runs: [SceneRun]) -> Plot {
        var plot = Plot(
            title: "pipeline time per frame (all scenes)", xLabel: "ms per frame", yLabel: "share of frames (%)")
        let all = runs.flatMap { $0.summary.timings.samples[Stage.pipeline.rawValue] ?? [] }
        let top = max(5, (Percentiles(all).value(at: 99.5) ?? 50).rounded(.up))
        let laws = runs.map(\.law).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for law in laws {
            let times = runs.filter { $0.law == law }.flatMap {
                $0.summary.timings.samples[Stage.pipeline.rawValue] ?? []
            }
            guard !times.isEmpty else { continue }
            var bins = [Double](repeating: 0, count: Int(top) + 1)
            for t in times { bins[min(Int(t), bins.count - 1)] += 1 }
            plot.series.append(
                Plot.Series(
                    name: "law \(law)",
                    points: bins.indices.map { (Double($0) + 0.5, bins[$0] * 100 / Double(times.count)) },
                    color: lawColors[law] ?? .black))
        }
        plot.xRange = 0...top + 1
        return plot
    }

    /// Stretches of consecutive frames where `condition` holds: (start, end) times.
    static func spans(in e: SceneEvaluation, where condition: (FrameSample) -> Bool) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        var start: Double?
        for sample in e.samples {
            if condition(sample) {
                start = start ?? sample.time
            } else if let s = start {
                out.append((s, sample.time))
                start = nil
            }
        }
        if let start, let last = e.samples.last { out.append((start, last.time)) }
        return out
    }

    /// Writes every plot of a report into `directory`; returns the files written.
    static func write(_ runs: [SceneRun], to directory: String) throws(SessionError) -> [String] {
        var written: [String] = []
        func save(_ plot: Plot, _ name: String) throws(SessionError) {
            let path = directory + "/" + name
            do { try plot.render().write(to: path) } catch {
                throw SessionError("cannot write the plot \(path): \(error) (is the disk full?)")
            }
            written.append(path)
        }
        for run in runs {
            try save(errorOverTime(run), "error-\(run.scene)-\(run.law).png")
            try save(bearings(run), "bearings-\(run.scene)-\(run.law).png")
        }
        let scenes = runs.map(\.scene).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for scene in scenes {
            if let plot = stepResponse(runs.filter { $0.scene == scene }) { try save(plot, "steps-\(scene).png") }
        }
        try save(latencyHistogram(runs), "latency.png")
        return written
    }
}
