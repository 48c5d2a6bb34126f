import DockCore
import Foundation
import TestSupport
import Testing

@testable import DockKit

/// DockKit programs as dockd's clients: the programs in Examples/ run against a dockd
/// subprocess (the demo scene, its simulated gimbal) through its socket alone — no simulator
/// of their own — and move its head; custom tracking's rate contract is judged by dockd; a
/// client killed mid-track hands the dock back.
@Suite(.serialized, .tags(.process), .notInFastRuns) struct DockKitClientTests {
    /// Runs `body` with a dockd serving the demo on a socket of its own, then stops it.
    func withDockd(_ extra: [String] = [], _ body: @escaping (String) throws -> Void) throws {
        let socket = Fixtures.temporaryDirectory("dockkit-client") + "/dockd.sock"
        var failure: (any Error)?
        let dockd = try ProcessRunner.run(
            "dockd", ["--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket] + extra,
            readyText: "control API on"
        ) { process in
            do { try body(socket) } catch { failure = error }
            kill(process.processIdentifier, SIGTERM)
        }
        if let failure { throw failure }
        #expect(dockd.status == 0, "\(dockd.stderr)")
    }

    func status(_ socket: String) -> [String: Any] {
        let reply = try? ProcessRunner.run("dockctl", ["status", "--json", "--socket", socket])
        return (try? JSONSerialization.jsonObject(with: Data((reply?.stdout ?? "").utf8))) as? [String: Any] ?? [:]
    }

    func client(_ name: String, _ arguments: [String], socket: String) throws -> ProcessResult {
        try ProcessRunner.run(name, arguments, environment: ["OPENDOCK_SOCKET": socket])
    }

    /// The signed numbers after `label` in the output, e.g. "right: yaw +10.3°".
    func numbers(after label: String, in text: String) -> [Double] {
        text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: label) else { return nil }
            let rest = line[range.upperBound...].drop { $0 == " " }
            return Double(rest.prefix { "+-.0123456789".contains($0) })
        }
    }

    @Test func theExamplesDriveDockdsHead() throws {
        try withDockd { socket in
            let sweep = try client("example-sweep", ["0.5"], socket: socket)
            #expect(sweep.status == 0, "\(sweep.stderr)")
            let right = try #require(numbers(after: "right: yaw", in: sweep.stdout).first)
            let left = try #require(numbers(after: "left: yaw", in: sweep.stdout).first)
            let back = try #require(numbers(after: "back: yaw", in: sweep.stdout).first)
            // 0.4 rad/s for 0.5 s is 11.5°, each way from wherever the demo had turned the head.
            #expect(right - left > 15 && back - left > 6, "\(sweep.stdout)")
            #expect(sweep.stdout.contains("system tracking on"), "\(sweep.stdout)")
            // Turned off before the dock was found (Apple's order): the dock found took it, and
            // the motors then moved (above).
            #expect(sweep.stdout.contains("with system tracking off"), "\(sweep.stdout)")

            let look = try client("example-look-around", [], socket: socket)
            #expect(look.status == 0, "\(look.stderr)")
            let arrived = look.stdout.split(separator: "\n").filter { $0.hasPrefix("arrived") }
            #expect(arrived.count == 4, "\(look.stdout)")
            for line in arrived {
                let n = line.split(separator: " ").compactMap { Double($0.filter { "+-.0123456789".contains($0) }) }
                #expect(n.count == 4 && abs(n[0] - n[2]) < 1 && abs(n[1] - n[3]) < 1, "\(line)")
            }
            // Each session handed system tracking back as it found it.
            #expect(status(socket)["systemTracking"] as? Bool == true)
        }
    }

    @Test func customTrackingIsJudgedByDockdAtEachRate() throws {
        try withDockd { socket in
            for rate in [10, 20, 30] {
                let run = try client("example-custom-tracking", ["2", "\(rate)"], socket: socket)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stdout.contains("\(2 * rate) track calls at \(rate) Hz, 0 refused"), "\(run.stdout)")
                let turned = try #require(numbers(after: "head turned", in: run.stdout).first)
                #expect(abs(turned - 20) < 3, "\(rate) Hz: \(run.stdout)")
            }
            let fast = try client("example-custom-tracking", ["1", "40"], socket: socket)
            #expect(fast.status == 0, "\(fast.stderr)")
            #expect(fast.stdout.contains("frameRateTooHigh"), "\(fast.stdout)")
            #expect(numbers(after: "Hz,", in: fast.stdout).first.map { $0 > 10 } == true, "\(fast.stdout)")
        }
    }

    func motion(_ status: [String: Any], _ key: String) -> Double? {
        ((status["motion"] as? [String: Any])?[key] as? [String: Any])?["yaw"] as? Double
    }

    /// Starts `name` as dockd's client and waits until `ready` says so of dockd's status (60 s
    /// at most, five times that under a sanitizer: a sanitized client, dockd and each `dockctl
    /// status` start slowly, the more so beside the rest of the suite).
    func startClient(
        _ name: String, _ arguments: [String], socket: String, until ready: ([String: Any]) -> Bool
    ) throws -> (Process, [String: Any]) {
        let program = Process()
        program.executableURL = URL(fileURLWithPath: try ProcessRunner.executable(name))
        program.arguments = arguments
        program.environment = ProcessInfo.processInfo.environment.merging(["OPENDOCK_SOCKET": socket]) { $1 }
        program.standardOutput = FileHandle.nullDevice
        try program.run()
        let deadline = Date().addingTimeInterval(60 * Sanitizer.slowdown)
        var seen: [String: Any] = [:]
        repeat {
            Thread.sleep(forTimeInterval: 0.05)
            seen = status(socket)
        } while Date() < deadline && !ready(seen)
        return (program, seen)
    }

    /// Kills `program` and polls dockd's status until `done` says so (5 s at most, longer under a
    /// sanitizer); how long it took.
    func killClient(_ program: Process, socket: String, until done: ([String: Any]) -> Bool) -> (Double, [String: Any])
    {
        kill(program.processIdentifier, SIGKILL)
        let killed = Date()
        program.waitUntilExit()
        var after: [String: Any] = [:]
        repeat {
            Thread.sleep(forTimeInterval: 0.02)
            after = status(socket)
        } while Date().timeIntervalSince(killed) < 5 * Sanitizer.slowdown && !done(after)
        return (Date().timeIntervalSince(killed), after)
    }

    @Test func aClientKilledMidTrackHandsTheDockBack() throws {
        try withDockd { socket in
            // Custom tracking, system tracking on when it came.
            // It would track for 120 s; it is killed as soon as dockd shows it holding the dock.
            let (program, held) = try startClient("example-custom-tracking", ["120", "20"], socket: socket) {
                $0["client"] != nil && $0["systemTracking"] as? Bool == false
            }
            #expect(held["systemTracking"] as? Bool == false, "\(held)")
            #expect((held["client"] as? String)?.contains("pid \(program.processIdentifier)") == true, "\(held)")
            // Another program is refused while this one holds the dock.
            let second = try ProcessRunner.run("dockctl", ["move", "--yaw-rate", "5", "--socket", socket])
            #expect(second.status == 1 && second.stderr.contains("holds the dock"), "\(second.stderr)")
            let (handedBack, after) = killClient(program, socket: socket) { $0["client"] == nil }
            #expect(after["client"] == nil, "the session ended with the program")
            #expect(handedBack < Sanitizer.slowdown, "handed back \(handedBack) s after the kill")
            #expect(after["systemTracking"] as? Bool == true, "system tracking restored: \(after)")

            // With system tracking off before it came, a program killed mid-sweep leaves the head
            // stopped and tracking off, as it found them.
            #expect(try ProcessRunner.run("dockctl", ["tracking", "off", "--socket", socket]).status == 0)
            Thread.sleep(forTimeInterval: 0.3 * Sanitizer.slowdown)  // the deadman has stopped the head
            let start = try #require(motion(status(socket), "positions"))
            let (sweep, turning) = try startClient("example-sweep", ["3"], socket: socket) {
                $0["client"] != nil && abs(self.motion($0, "velocities") ?? 0) > 0.2
                    && (self.motion($0, "positions") ?? start) - start > 5 * .pi / 180
            }
            // The sweep turns the head right, as dockd's status shows.
            #expect(abs(motion(turning, "velocities") ?? 0) > 0.2, "\(turning)")
            #expect((motion(turning, "positions") ?? start) - start > 5 * .pi / 180, "\(turning)")
            let (stopped, still) = killClient(sweep, socket: socket) { abs(self.motion($0, "velocities") ?? 1) < 0.001 }
            #expect(stopped < Sanitizer.slowdown, "the head stopped \(stopped) s after the kill: \(still)")
            #expect(still["systemTracking"] as? Bool == false && still["client"] == nil, "\(still)")
        }
    }

    /// A program with vision of its own: dockd's clean frames, YuNet, custom tracking. The
    /// demo's person walks; only the program moves the head, and keeps the face near the centre.
    @Test func aProgramWithItsOwnVisionFollowsTheFaceInDockdsFrames() throws {
        try withDockd { socket in
            let run = try client("example-face-follow", ["5"], socket: socket)
            #expect(run.status == 0, "\(run.stderr)")
            // "F frames, a face in N; C track calls, R refused; median offset from centre after 1.5 s O"
            let summary = try #require(run.stdout.split(separator: "\n").first { $0.contains("frames, a face in") })
            let n = summary.split { !"0123456789.".contains($0) }.compactMap { Double($0) }
            try #require(n.count == 6, "\(summary)")
            let (frames, faces, calls, refused, offset) = (n[0], n[1], n[2], n[3], n[5])
            #expect(frames >= 20 && faces >= 0.8 * frames, "\(run.stdout)")
            // 15 Hz for 5 s, from the first detection on.
            #expect(calls >= 50 && refused == 0, "\(run.stdout)")
            #expect(offset < 0.12, "the face kept near the centre: \(run.stdout)")
        }
    }

    @Test func aHeldButtonOnDockdsRemotePansThroughTheClient() throws {
        let remote = Fixtures.temporaryDirectory("dockkit-client") + "/remote"
        #expect(mkfifo(remote, 0o600) == 0)
        try withDockd(["--buttons", remote]) { socket in
            let result = try ProcessRunner.run(
                "example-button-panorama", ["1"], environment: ["OPENDOCK_SOCKET": socket],
                readyText: "hold a button to pan"
            ) { _ in
                // Until the program's event stream is subscribed.
                let subscribed = Date().addingTimeInterval(30)
                while Date() < subscribed,
                    (try? ProcessRunner.run("dockctl", ["metrics", "--socket", socket]))?.stdout.contains(
                        "opendock_event_stream_clients{stream=\"accessory\"} 1") != true
                {
                    Thread.sleep(forTimeInterval: 0.1)
                }
                guard let keys = FileHandle(forWritingAtPath: remote) else { return }
                keys.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: 256, value: 1))))
                Thread.sleep(forTimeInterval: 1)
                keys.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: 256, value: 0))))
                Thread.sleep(forTimeInterval: 0.5)
                try? keys.close()
            }
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("button 256 pressed: panning"), "\(result.stdout)")
            #expect(result.stdout.contains("released: stopped at yaw"), "\(result.stdout)")
        }
    }

    @Test func withoutDockdNothingIsDockedAndItIsFoundWhenItStarts() async throws {
        let socket = Fixtures.temporaryDirectory("dockkit-client") + "/dockd.sock"
        let manager = DockAccessoryManager()
        let watcher = DockdWatcher(manager: manager, endpoint: .unix(path: socket), retryInterval: 0.1)
        watcher.start()
        try await Task.sleep(for: .milliseconds(300))
        #expect(manager.accessories.isEmpty)
        let dockd = Process()
        dockd.executableURL = URL(fileURLWithPath: try ProcessRunner.executable("dockd"))
        dockd.arguments = ["--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket]
        dockd.standardError = FileHandle.nullDevice
        try dockd.run()
        var deadline = Date().addingTimeInterval(30)
        while Date() < deadline && manager.accessories.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        let docked = try #require(manager.accessories.first)
        #expect(docked.identifier.name == "simulated gimbal")
        #expect(docked.local == nil, "a client of dockd, not a dock of its own")
        kill(dockd.processIdentifier, SIGTERM)
        dockd.waitUntilExit()
        deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !manager.accessories.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(manager.accessories.isEmpty, "undocked when dockd stops")
        watcher.stop()
    }
}
