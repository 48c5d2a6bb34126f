import ControlClient
import Foundation
import TestSupport
import Testing

@testable import dockctl
@testable import dockctl_tools

/// dockctl's verb table: the verbs for dockd run in dockctl (no OpenCV linked), the tool verbs
/// in dockctl-tools, and the two tables name the same verbs.
@Suite(.tags(.process), .notInFastRuns) struct DockctlVerbTests {
    @Test func theTablesAgree() {
        let dockdVerbs = dockctlVerbs.filter { $0.runner == .dockd }.map(\.name)
        let tools = dockctlVerbs.filter { $0.runner == .tools }.map(\.name)
        #expect(Set(dockdVerbs) == ClientCommand.verbs)
        #expect(tools == toolVerbs.map(\.name))
        for verb in dockctlVerbs { #expect(usage.contains("  \(verb.name) ")) }
        // The verbs' own usage names each of them too.
        for verb in ClientCommand.verbs { #expect(ClientCommand.help.contains("\n  \(verb) "), "\(verb)") }
    }

    @Test func dockctlLinksNoOpenCV() throws {
        let light = try ProcessRunner.run("/usr/bin/ldd", [try ProcessRunner.executable("dockctl")])
        #expect(light.status == 0)
        #expect(!light.stdout.contains("opencv"))
        #expect(!light.stdout.contains("libasound"))
        // The peer that does link it, so the check above can tell.
        let tools = try ProcessRunner.run("/usr/bin/ldd", [try ProcessRunner.executable("dockctl-tools")])
        #expect(tools.stdout.contains("libopencv_dnn"))
    }

    @Test func toolVerbsRunThroughDockctl() throws {
        let help = try ProcessRunner.run("dockctl", ["bench-motion", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("dockctl bench-motion"))
        let usage = try ProcessRunner.run("dockctl", ["scenes", "check"])
        #expect(usage.status == 1)
        #expect(usage.stderr.hasPrefix("dockctl: scenes check needs"))
        let unknown = try ProcessRunner.run("dockctl", ["bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command 'bogus'"))
    }

    @Test func missingToolsIsOneClearLine() throws {
        let directory = Fixtures.temporaryDirectory("dockctl-alone")
        let copy = directory + "/dockctl"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: try ProcessRunner.executable("dockctl"), toPath: copy)
        let result = try ProcessRunner.run(copy, ["bench", "scenes"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("not beside dockctl"))
    }
}
