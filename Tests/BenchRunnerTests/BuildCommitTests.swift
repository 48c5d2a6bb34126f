import Foundation
import TestSupport
import Testing

@testable import BenchRunner

/// The commit a report names: the one the program was built from, whatever happened after.
@Suite(.tags(.unit)) struct BuildCommitTests {
    let root = Fixtures.temporaryDirectory("build-commit")

    /// Runs git in the checkout; `at` dates a commit (author and committer) in seconds from now.
    @discardableResult
    func git(_ arguments: String..., at offset: Double = 0) throws -> String {
        let date = "@\(Int(Date().timeIntervalSince1970 + offset)) +0000"
        let run = try ProcessRunner.run(
            "/usr/bin/git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments,
            environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        #expect(run.status == 0, "git \(arguments): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ text: String, to file: String, at date: Date) throws {
        try text.write(toFile: root + "/" + file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root + "/" + file)
    }

    @Test func theCommitBeforeTheBuildWithAPlusForEditsItHad() throws {
        let now = Date()
        try FileManager.default.createDirectory(atPath: root + "/Sources", withIntermediateDirectories: true)
        try git("init", "-q")
        try write("a", to: "Sources/a.swift", at: now.addingTimeInterval(-30))
        try git("add", ".")
        try git("commit", "-q", "-m", "first", at: -20)
        let first = try git("rev-parse", "--short", "HEAD")
        // Built 10 s ago, after the first commit.
        try write("program", to: "program", at: now.addingTimeInterval(-10))
        #expect(BuildCommit.describe(program: root + "/program") == first)
        try write("b", to: "Sources/a.swift", at: now)
        #expect(BuildCommit.describe(program: root + "/program") == first, "an edit after the build")
        try write("c", to: "Sources/a.swift", at: now.addingTimeInterval(-15))
        #expect(BuildCommit.describe(program: root + "/program") == first + "+", "an edit the build had")
        try git("commit", "-q", "-am", "second", at: 0)
        #expect(BuildCommit.describe(program: root + "/program") == first + "+", "committed after the build")
        // Outside any checkout: nothing to say.
        let loose = Fixtures.temporaryDirectory("build-commit-loose") + "/program"
        try "p".write(toFile: loose, atomically: true, encoding: .utf8)
        #expect(BuildCommit.describe(program: loose) == nil)
    }
}
