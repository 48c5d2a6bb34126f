import Foundation

/// The commit a benchmark measured, so a report says what it measured and a comparison says
/// between which two commits. The running program sits in a checkout (found upward from it):
/// its build came from the newest commit made before the program was built, with `+` when a
/// source file differed from that commit already then. Commits made or files edited after the
/// build do not change what it says.
enum BuildCommit {
    /// `program`: this process's executable unless another is named.
    static func describe(program: String? = nil) -> String? {
        guard let program = program ?? (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")),
            let built = modified(program)
        else { return nil }
        var directory = URL(fileURLWithPath: program).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.path + "/.git") { break }
            directory.deleteLastPathComponent()
        }
        let root = directory.path
        let stamp = "@\(Int(built.timeIntervalSince1970))"
        guard root != "/", let commit = git(root, ["rev-list", "-1", "--before=\(stamp)", "HEAD"]), !commit.isEmpty,
            let short = git(root, ["rev-parse", "--short", commit])
        else { return nil }
        let changed = (git(root, ["diff", "--name-only", commit, "--", "Sources"]) ?? "").split(separator: "\n")
        let before = changed.contains { file in modified(root + "/" + file).map { $0 <= built } ?? true }
        return short + (before ? "+" : "")
    }

    static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// What git printed, trimmed; nil when it failed.
    private static func git(_ root: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", root] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
