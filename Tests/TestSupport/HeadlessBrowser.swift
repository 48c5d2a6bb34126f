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
    public static func screenshot(_ url: String, milliseconds: Int, width: Int = 1280, height: Int = 900) throws
        -> Frame
    {
        let file = Fixtures.temporaryDirectory("screenshot") + "/page.png"
        _ = try run(
            url, milliseconds: milliseconds, output: ["--window-size=\(width),\(height)", "--screenshot=\(file)"])
        return try Frame.read(contentsOf: file)
    }
}
