import DockCore
import Foundation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Daemon
@testable import Options
@testable import Pipeline

/// A stand-in for systemd's end of sd_notify: a Unix datagram socket that collects what it is sent.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let socket: Int32
    private let received = Protected<[String]>([])
    private let done = Protected(false)

    init() throws {
        path = Fixtures.temporaryDirectory("notify") + "/notify.sock"
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard socket >= 0, bound == 0 else { throw SessionError("cannot bind a datagram socket at \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [socket, received, done] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done.withLock({ $0 }) {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 { received.withLock { $0.append(String(decoding: buffer[0..<count], as: UTF8.self)) } }
            }
        }
        thread.start()
    }

    var messages: [String] { received.withLock { $0 } }

    func close() {
        done.withLock { $0 = true }
        Thread.sleep(forTimeInterval: 0.1)
        Glibc.close(socket)
    }
}

@Suite(.tags(.process), .notInFastRuns) struct SystemdNotifierTests {
    /// Pings come only when the loop reports progress, at most every half of WATCHDOG_USEC.
    @Test func watchdogPingsFollowProgressNotTime() throws {
        let listener = try NotifyListener()
        defer { listener.close() }
        let clock = ManualClock()
        let notifier = try #require(
            SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"], clock: clock))
        #expect(notifier.watchdogInterval == 0.2)
        #expect(notifier.send("READY=1"))
        for _ in 0..<10 {  // 10 rounds of the loop in 0.05 s steps: pings at 0, 0.1, 0.2, 0.3, 0.4
            notifier.progress()
            clock.advance(bySeconds: 0.05)
        }
        clock.advance(bySeconds: 5)  // a hung loop: time passes, no progress, no ping
        Thread.sleep(forTimeInterval: 0.3)
        #expect(listener.messages == ["READY=1"] + Array(repeating: "WATCHDOG=1", count: 5))
        #expect(SystemdNotifier(environment: [:]) == nil)
        // The watchdog is another process's: no pings.
        let other = try #require(
            SystemdNotifier(environment: [
                "NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1",
            ]))
        #expect(other.watchdogInterval == nil)
    }

    /// dockd under a notify socket: READY once running, watchdog pings while the loop runs,
    /// STOPPING on SIGTERM, and out within 2 s.
    @Test func dockdTalksToSystemd() throws {
        let listener = try NotifyListener()
        defer { listener.close() }
        var signalled = Date()
        let result = try ProcessRunner.run(
            "dockd", ["--demo", "--quiet", "--bodies", "none"],
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"],
            readyText: "track rate"
        ) { process in
            let deadline = Date().addingTimeInterval(60)
            while listener.messages.filter({ $0 == "WATCHDOG=1" }).count < 3 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            signalled = Date()
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(Date().timeIntervalSince(signalled) < 2)
        #expect(result.status == 0, "\(result.stderr)")
        Thread.sleep(forTimeInterval: 0.2)
        let messages = listener.messages
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=tracking, source generated scene") == true, "\(messages)")
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3)
        #expect(messages.contains("STOPPING=1"))
    }

    /// The shipped example configuration is a valid one.
    @Test func theShippedConfigurationLoads() throws {
        let settings = try DockdConfigFile.load(path: Fixtures.repositoryRoot + "/systemd/dockd.json")
        #expect(settings.map(\.keyPath).contains("speakers.audio_device"))
        let unit = try String(contentsOfFile: Fixtures.repositoryRoot + "/systemd/dockd.service", encoding: .utf8)
        #expect(unit.contains("Type=notify") && unit.contains("WatchdogSec=") && unit.contains("Restart=on-failure"))
    }
}
