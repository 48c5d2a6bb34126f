import Foundation

/// The commit a benchmark measured, so a report says what it measured and a comparison says
/// between which two commits: git's short hash of the checkout the running program sits in
/// (found upward from the program), with `+` when its sources differ from that commit. It is
/// read when the report is written, so a build older than its checkout is not noticed.
enum BuildCommit {
    static func describe() -> String? {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        var directory = URL(fileURLWithPath: program).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.path + "/.git") { break }
            directory.deleteLastPathComponent()
        }
        guard directory.path != "/", let head = git(["-C", directory.path, "rev-parse", "--short", "HEAD"]),
            head.status == 0, !head.output.isEmpty
        else { return nil }
        let changed = git(["-C", directory.path, "diff", "--quiet", "HEAD", "--", "Sources"])?.status == 1
        return head.output + (changed ? "+" : "")
    }

    private static func git(_ arguments: [String]) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }
}
