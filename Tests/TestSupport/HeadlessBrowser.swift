import DockCore
import Foundation
import Imaging

/// Debian's chromium-headless-shell (Scripts/setup installs it), for pages checked as a person
/// sees them: the status page, the benchmark's report.
public enum HeadlessBrowser {
    public static let path = "/usr/bin/chromium-headless-shell"

    /// Runs the browser on `url` for at most `milliseconds` of the page's time; what it prints.
    /// A browser that does not finish within a minute is killed, so a suite never waits on it.
    public static func run(_ url: String, milliseconds: Int, output: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let profile = Fixtures.temporaryDirectory("chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile)", "--timeout=\(milliseconds)",
            ] + output + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let finished = Protected(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(60)) {
            if !finished.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        finished.withLock { $0 = true }
        return String(decoding: data, as: UTF8.self)
    }

    /// The page as the browser drew it after `milliseconds`, in a window of `width`×`height`.
    /// With `settled`, the page's time runs only while the network is quiet: a page that loads
    /// its content by script is drawn after it has (a page that streams never settles).
    public static func screenshot(
        _ url: String, milliseconds: Int, width: Int = 1280, height: Int = 900, settled: Bool = false
    ) throws -> Frame {
        let file = Fixtures.temporaryDirectory("screenshot") + "/page.png"
        _ = try run(
            url, milliseconds: settled ? 30_000 : milliseconds,
            output: (settled ? [virtualTime(milliseconds)] : [])
                + ["--window-size=\(width),\(height)", "--screenshot=\(file)"])
        return try Frame.read(contentsOf: file)
    }

    /// The page's DOM once it has run for `milliseconds` of its own time, which stands still
    /// while a request is under way: what a script that loads its content made of the page.
    public static func settledDOM(_ url: String, milliseconds: Int) throws -> String {
        try run(url, milliseconds: 30_000, output: [virtualTime(milliseconds), "--dump-dom"])
    }

    static func virtualTime(_ milliseconds: Int) -> String { "--virtual-time-budget=\(milliseconds)" }
}
