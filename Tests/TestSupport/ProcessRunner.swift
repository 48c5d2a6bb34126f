import Foundation

/// Runs one of the package's executables as a child process and collects what it printed.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var seconds: Double
}

public enum ProcessRunner {
    /// Where `swift build` left the executables ($OPENDOCK_BIN overrides).
    public static var binDirectory: String {
        ProcessInfo.processInfo.environment["OPENDOCK_BIN"] ?? Fixtures.repositoryRoot + "/.build/debug"
    }

    /// A built executable by name, or any program by absolute path.
    public static func executable(_ name: String) throws -> String {
        let path = name.hasPrefix("/") ? name : binDirectory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Fixtures.Missing(path: path + " (run swift build)")
        }
        return path
    }

    /// Starts the process (with `environment` added to this one's); `whileRunning` gets it
    /// before the wait (to send signals), once its
    /// stderr contains `readyText` when that is given (at most 120 s: slow sanitizer builds).
    public static func run(
        _ name: String, _ arguments: [String], currentDirectory: String = Fixtures.repositoryRoot,
        environment: [String: String] = [:],
        readyText: String? = nil, whileRunning: ((Process) -> Void)? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable(name))
        process.arguments = arguments
        var environment = environment
        // Each dockd gets a control socket of its own, so tests running side by side never meet.
        if name == "dockd" && environment["OPENDOCK_SOCKET"] == nil {
            environment["OPENDOCK_SOCKET"] = Fixtures.temporaryDirectory("dockd") + "/dockd.sock"
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        // Drain both pipes while it runs so a chatty child never blocks on a full pipe.
        let outData = Accumulator()
        let errData = Accumulator()
        let readers = [(out, outData), (err, errData)].map { pipe, sink in
            BlockingWork("test.pipe-reader") {
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    sink.append(chunk)
                }
            }
        }
        if let readyText {
            let deadline = Date().addingTimeInterval(120)
            while !errData.text.contains(readyText) && process.isRunning && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        whileRunning?(process)
        process.waitUntilExit()
        for reader in readers { reader.wait() }
        return ProcessResult(
            status: process.terminationStatus, stdout: outData.text, stderr: errData.text,
            seconds: Date().timeIntervalSince(start))
    }
}

extension ProcessRunner {
    /// Waits (up to `seconds`) until the process blocks `signal` (it then takes it in order, as
    /// dockd does once its signal thread is set up); false if it never does.
    public static func waitUntilBlocking(_ signal: Int32, pid: Int32, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & (1 << UInt64(signal - 1)) != 0
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }
}

private final class Accumulator: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ d: Data) {
        lock.lock()
        data.append(d)
        lock.unlock()
    }
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
