import Bench
import Foundation
import Pipeline

/// The benchmark's report as one self-contained HTML page (`report.html`): the overview per
/// law, what changed against an earlier run, and a card per scene and law with where the head
/// pointed against each person's bearing, the centring error, every figure, and links to the
/// trace and the annotated clip. Plots are inlined: the page needs no network and no other file
/// to show them.
struct BenchHTMLReport {
    let report: BenchReport
    /// The report's directory: plots are read from plots/, links point into traces/ and videos/.
    let directory: String
    var comparison: BenchComparison?
    var date = Date()

    var html: String {
        var body = ["<h1>OpenDock closed-loop benchmark</h1>"]
        let scenes = report.runs.map(\.scene).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        body.append(
            "<p class=meta>\(Self.escape(report.machine)) · \(Self.stamp(date)) · commit "
                + Self.escape(report.commit ?? "unknown") + " · \(scenes.count) scenes · laws "
                + report.laws.map(Self.escape).joined(separator: ", ") + "</p>")
        let proposed = scenes.filter { scene in report.runs.contains { $0.scene == scene && $0.truthIsProposed } }
        if !proposed.isEmpty {
            body.append(
                "<p class=proposed>Proposed truth, not checked (dockctl label): "
                    + proposed.map(Self.escape).joined(separator: ", ") + ". Their figures are only as good.</p>")
        }
        if let comparison { body.append(Self.changes(comparison)) }
        for law in report.laws { body.append(overview(law)) }
        body.append("<h2>Scenes</h2>")
        for scene in scenes {
            for run in report.runs where run.scene == scene { body.append(card(run)) }
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>OpenDock benchmark</title>
            <style>\(Self.style)</style></head>
            <body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
        h1{font-size:22px}h2{font-size:18px;margin-top:28px}
        .meta{color:#666}
        table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}
        th:first-child,td:first-child{text-align:left}
        .card{border:1px solid #ccc;border-radius:6px;padding:12px;margin:16px 0}
        .card img{width:100%;max-width:1000px;display:block;margin:6px 0}
        .better{color:#17723a}.worse{color:#b3261e}.timing{color:#666}summary h3{display:inline}
        .proposed{background:#fff4d6;padding:4px 8px;border-radius:4px}
        td.met{color:#17723a}td.unmet{color:#b3261e;font-weight:bold}.goals{color:#444}
        """

    /// One law's scenes and overall, the headline figures.
    func overview(_ law: String) -> String {
        let mine = report.runs.filter { $0.law == law }
        let rows = mine.map { ($0.scene, $0.figures) } + [("overall", BenchReport.overall(mine))]
        guard let first = rows.first?.1 else { return "" }
        let columns = BenchReport.summaryColumns(rows.map(\.1))
        let keys = columns.compactMap { key in first.first { $0.key == key } }
        var out = ["<h2>Control law \(Self.escape(law))</h2>", "<table><tr><th>scene</th>"]
        out.append(keys.map { "<th>\(Self.escape($0.label))</th>" }.joined() + "</tr>")
        for (index, (scene, figures)) in rows.enumerated() {
            let goals = index < mine.count ? BenchGoal.check(mine[index]) : []
            let cells = columns.compactMap { key in figures.first { $0.key == key } }.map { figure in
                let check = goals.first { $0.goal.key == figure.key }
                let mark =
                    check.map { " class=\($0.met ? "met" : "unmet") title=\"goal \(Self.escape($0.goal.text))\"" } ?? ""
                return "<td\(mark)>\(Self.escape(figure.text))</td>"
            }
            let name =
                scene == "overall"
                ? "<b>overall</b>" : "<a href=\"#\(Self.anchor(scene, law))\">\(Self.escape(scene))</a>"
            out.append("<tr><td>\(name)</td>" + cells.joined() + "</tr>")
        }
        out.append("</table>")
        let goals = BenchReport.goalLines(mine, bullet: "")
        if let first = goals.first {
            out.append(
                "<p class=goals>\(Self.escape(first.prefix(1).uppercased() + first.dropFirst())) (green: met; red: not met)</p>"
            )
            if goals.count > 1 {
                out.append(
                    "<ul class=worse>" + goals.dropFirst().map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>")
            }
        }
        return out.joined(separator: "\n")
    }

    /// One scene under one law: its plots, its figures, its files.
    func card(_ run: SceneRun) -> String {
        let name = "\(run.scene)-\(run.law)"
        var out = ["<div class=card id=\"\(Self.anchor(run.scene, run.law))\">"]
        out.append("<h3>\(Self.escape(run.scene)) · \(Self.escape(run.law))</h3>")
        if run.truthIsProposed {
            out.append(
                "<p class=proposed>Proposed truth (dockctl label), not checked: the figures are only as good.</p>")
        }
        for plot in ["bearings-\(name).png", "error-\(name).png"] {
            if let data = FileManager.default.contents(atPath: "\(directory)/plots/\(plot)") {
                out.append(
                    "<img alt=\"\(Self.escape(plot))\" src=\"data:image/png;base64,\(data.base64EncodedString())\">")
            }
        }
        var links = ["<a href=\"traces/\(Self.escape(name)).csv\">trace</a>"]
        if FileManager.default.fileExists(atPath: "\(directory)/videos/\(name).avi") {
            links.append("<a href=\"videos/\(Self.escape(name)).avi\">annotated clip</a>")
        }
        out.append("<p>" + links.joined(separator: " · ") + "</p>")
        let before = comparison?.changes.filter { $0.law == run.law && $0.scene == run.scene } ?? []
        let goals = BenchGoal.check(run)
        out.append(
            "<table><tr><th>figure</th><th>value</th><th>goal</th>" + (comparison == nil ? "" : "<th>before</th>")
                + "</tr>")
        for figure in run.figures where figure.value != nil || goals.contains(where: { $0.goal.key == figure.key }) {
            let check = goals.first { $0.goal.key == figure.key }
            var row = "<tr><td>\(Self.escape(figure.label))</td>"
            if let check {
                row += "<td class=\(check.met ? "met" : "unmet")>\(Self.escape(figure.text))</td>"
                row +=
                    "<td title=\"\(Self.escape(check.goal.source))\">\(Self.escape(check.goal.text)) "
                    + (check.met ? "met" : "not met") + "</td>"
            } else {
                row += "<td>\(Self.escape(figure.text))</td><td></td>"
            }
            if comparison != nil {
                let change = before.first { $0.key == figure.key }
                row += change.map { "<td class=\($0.verdict.rawValue)>\(Self.number($0.before))</td>" } ?? "<td></td>"
            }
            out.append(row + "</tr>")
        }
        out.append("</table></div>")
        return out.joined(separator: "\n")
    }

    /// What got better and what got worse against the earlier run.
    static func changes(_ comparison: BenchComparison) -> String {
        var out = ["<h2>Against \(escape(comparison.heading))</h2>"]
        for verdict in [BenchComparison.Verdict.better, .worse, .timing] {
            let mine = comparison.changes.filter { $0.verdict == verdict }
            let title =
                switch verdict {
                case .better: "Better"
                case .worse: "Worse"
                case .timing: "Timing and memory (this machine's load; not judged)"
                }
            let heading = "<h3 class=\(verdict.rawValue)>\(title): \(mine.count)</h3>"
            guard !mine.isEmpty else {
                out.append(heading)
                continue
            }
            // Timing moves with the machine's load: listed folded, so the judged changes lead.
            let folded = verdict == .timing
            out.append(folded ? "<details><summary>\(heading)</summary>" : heading)
            out.append("<ul class=\(verdict.rawValue)>")
            for c in mine {
                out.append(
                    "<li>\(escape(c.law)), \(escape(c.scene)): \(escape(c.label)) \(number(c.before)) → \(number(c.after))</li>"
                )
            }
            out.append(folded ? "</ul></details>" : "</ul>")
        }
        if comparison.changes.isEmpty { out.append("<p>No figure moved by more than 1 %.</p>") }
        return out.joined(separator: "\n")
    }

    static func number(_ value: Double) -> String { value.isInfinite ? "never" : String(format: "%.2f", value) }

    static func anchor(_ scene: String, _ law: String) -> String {
        "run-" + "\(scene)-\(law)".map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        return formatter.string(from: date)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
