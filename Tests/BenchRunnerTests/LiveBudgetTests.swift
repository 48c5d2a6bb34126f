import Foundation
import TestSupport
import Testing

@testable import BenchRunner

/// The live benchmark: a recorded 720p webcam played through the V4L2 path, each run a process
/// of its own, the median of each figure reported.
@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct LiveBudgetTests {
    @Test func theSmallProfileThinsFramesAndRunsBodiesSeldomInAProcessOfItsOwn() throws {
        let report = Fixtures.temporaryDirectory("bench-live")
        var bench = try LiveBudgetCommand(arguments: [
            "--seconds", "6", "--repeat", "1", "--profiles", "small", "--report", report,
            "--models", Fixtures.repositoryRoot + "/models", "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        bench.toolsExecutable = try ProcessRunner.executable("dockctl-tools")
        let summary = try bench.run { _ in }
        #expect(try String(contentsOfFile: report + "/summary.md", encoding: .utf8) == summary)
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| small") }
        #expect(rows.count == 2, "\(summary)")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let (cpu, peak, processed, thinned, bodies) = (
                Double(cells[1]) ?? -1, Double(cells[2]) ?? -1, Double(cells[5]) ?? -1, Double(cells[6]) ?? -1,
                Double(cells[7]) ?? -1
            )
            // A 30 fps camera taken at 15: about as many frames thinned as processed.
            #expect(cpu > 0 && peak > 20 && processed >= 45 && abs(thinned - processed) <= 3, "\(row)")
            // Faces tell the demo's story: bodies at 5 a second for the first 2 s, then about once a second.
            #expect(cells[0].hasSuffix("faces only") ? bodies == 0 : bodies > 0 && bodies < 4, "\(row)")
        }
        #expect(!FileManager.default.fileExists(atPath: report + "/webcam.avi"), "the recording is not kept")
    }

    @Test func optionsAndMedians() throws {
        #expect(throws: (any Error).self) { try LiveBudgetCommand(arguments: ["--profiles", "tiny"]) }
        #expect(throws: (any Error).self) { try LiveBudgetCommand(arguments: ["--seconds", "1"]) }
        let bench = try LiveBudgetCommand(arguments: ["--profiles", "small,desktop", "--repeat", "5"])
        #expect(
            bench.runs.map { "\($0.profile.rawValue):\($0.bodies)" } == [
                "small:true", "small:false", "desktop:true", "desktop:false",
            ])
        #expect(bench.repeats == 5)
        let medians = LiveBudgetCommand.medians([["cpu_pct": 30], ["cpu_pct": 10, "x": 1], ["cpu_pct": 20]])
        #expect(medians == ["cpu_pct": 20, "x": 1])
    }
}
