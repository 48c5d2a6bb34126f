import DockCore
import Foundation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Daemon
@testable import DockKit
@testable import Options
@testable import Pipeline

/// dockctl against a real dockd over its control socket, and SIGTERM with clients connected.
@Suite(.serialized, .tags(.process), .notInFastRuns) struct DockctlClientTests {
    @Test func dockctlDrivesARunningDockdAndSigtermStillStopsIt() throws {
        let socket = Fixtures.temporaryDirectory("dockctl") + "/dockd.sock"
        var outputs: [String: ProcessResult] = [:]
        var signalled = Date()
        var socketRemoved = false
        let dockd = try ProcessRunner.run(
            "dockd", ["--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket],
            readyText: "control API on"
        ) { process in
            func dockctl(_ key: String, _ arguments: [String]) {
                outputs[key] = try? ProcessRunner.run("dockctl", arguments + ["--socket", socket])
            }
            // Until the person is tracked.
            let deadline = Date().addingTimeInterval(30)
            repeat {
                Thread.sleep(forTimeInterval: 0.2)
                dockctl("status", ["status"])
            } while Date() < deadline && outputs["status"]?.stdout.contains("subjects    1") != true
            dockctl("watch", ["watch", "--count", "2"])
            dockctl("framing", ["framing", "center"])
            dockctl("refused", ["move", "--yaw-rate", "20"])
            dockctl("off", ["tracking", "off"])
            // Slow enough that the head is far from its yaw limit when the watch starts, however
            // slowly the processes start (a sanitized build takes seconds).
            dockctl("move", ["move", "--yaw-rate", "2"])
            dockctl("motion", ["watch", "motion", "--count", "3", "--json"])
            dockctl("json", ["status", "--json"])
            dockctl("privacy", ["privacy"])
            // A client left streaming while the service is told to stop.
            let watcher = Process()
            watcher.executableURL = URL(fileURLWithPath: (try? ProcessRunner.executable("dockctl")) ?? "")
            watcher.arguments = ["watch", "motion", "--socket", socket]
            watcher.standardOutput = FileHandle.nullDevice
            try? watcher.run()
            Thread.sleep(forTimeInterval: 0.5)
            signalled = Date()
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            socketRemoved = !FileManager.default.fileExists(atPath: socket)
            // The stream ends with the service.
            let end = Date().addingTimeInterval(5)
            while watcher.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
            #expect(!watcher.isRunning, "a watching client is let go when dockd stops")
            if watcher.isRunning { watcher.terminate() }
        }
        let exitDelay = Date().timeIntervalSince(signalled)
        #expect(dockd.status == 0, "\(dockd.stderr)")
        #expect(exitDelay < 2, "exited \(exitDelay) s after SIGTERM with clients connected")
        #expect(dockd.stdout.contains("motors at exit: stopped"))
        #expect(socketRemoved, "the control socket is removed at exit")

        let status = try #require(outputs["status"])
        #expect(
            status.status == 0 && status.stdout.contains("accessory   simulated gimbal"),
            "\(status.stdout)\(status.stderr)")
        // Two tracking states, the person among them (a looping demo may lose them for a frame).
        let watched = (outputs["watch"]?.stdout ?? "").split(separator: "\n").filter { $0.hasPrefix("tracking ") }
        #expect(watched.count == 2, "\(outputs["watch"]?.stdout ?? "")")
        #expect(watched.contains("tracking 1 subject"), "\(watched)")
        #expect(outputs["framing"]?.stdout == "framing center\n")
        let refused = try #require(outputs["refused"])
        #expect(refused.status == 1 && refused.stderr.contains("system tracking is on"))
        #expect(outputs["off"]?.stdout == "system tracking off\n")
        #expect(outputs["move"]?.stdout.contains("turning: yaw +2.0°/s") == true)
        let rates = (outputs["motion"]?.stdout ?? "").split(separator: "\n").compactMap { line -> Double? in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return (object?["velocities"] as? [String: Double])?["yaw"]
        }
        // The held rate, reached after the head's latency and acceleration ramp (which a watch
        // that starts at once may still catch: a first rate of 0 on a busy machine).
        let held = 2 * Double.pi / 180
        #expect(rates.count == 3 && abs((rates.last ?? 0) - held) < 0.005, "\(rates)")
        #expect(rates.allSatisfy { $0 >= 0 && $0 < held + 0.005 }, "\(rates)")
        let json =
            (try? JSONSerialization.jsonObject(with: Data((outputs["json"]?.stdout ?? "").utf8))) as? [String: Any]
        #expect(json?["systemTracking"] as? Bool == false && json?["framingMode"] as? String == "center")
        let privacy = try #require(outputs["privacy"])
        #expect(
            privacy.status == 0
                && privacy.stdout.hasPrefix("system tracking off; going to the privacy pose (yaw +180.0°"),
            "\(privacy.stdout)\(privacy.stderr)")
    }

    @Test func aRemotesKeysReachWatchersAndThePlayKeySwitchesTracking() throws {
        let folder = Fixtures.temporaryDirectory("dockctl")
        let socket = folder + "/dockd.sock"
        let remote = folder + "/remote"
        #expect(mkfifo(remote, 0o600) == 0)
        let watched = Protected<ProcessResult?>(nil)
        var status: ProcessResult?
        let dockd = try ProcessRunner.run(
            "dockd",
            [
                "--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket,
                "--buttons", remote,
            ], readyText: "control API on"
        ) { process in
            let watcher = BlockingWork {
                let result = try? ProcessRunner.run(
                    "dockctl", ["watch", "accessory", "--count", "2", "--socket", socket])
                watched.withLock { $0 = result }
            }
            // Until the watcher is subscribed.
            let subscribed = Date().addingTimeInterval(30)
            while Date() < subscribed,
                (try? ProcessRunner.run("dockctl", ["metrics", "--socket", socket]))?.stdout.contains(
                    "opendock_event_stream_clients{stream=\"accessory\"} 1") != true
            {
                Thread.sleep(forTimeInterval: 0.1)
            }
            if let keys = FileHandle(forWritingAtPath: remote) {
                for (code, value) in [(212, 1), (212, 0), (164, 1), (164, 0)] as [(UInt16, Int32)] {
                    keys.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: code, value: value))))
                }
                watcher.wait(seconds: 10)
                try? keys.close()
            }
            status = try? ProcessRunner.run("dockctl", ["status", "--json", "--socket", socket])
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(dockd.status == 0 && dockd.stderr.contains("buttons from \(remote)"))
        let events = watched.withLock { $0 }
        #expect(
            events?.stdout == "event cameraShutter\nevent button 164 pressed\n",
            "\(events?.stdout ?? "") \(events?.stderr ?? "")")
        let object = (try? JSONSerialization.jsonObject(with: Data((status?.stdout ?? "").utf8))) as? [String: Any]
        #expect(object?["systemTracking"] as? Bool == false, "the play/pause key switched system tracking off")
    }

    @Test func aMissingRemoteIsReportedAndTrackingGoesOn() throws {
        let result = try ProcessRunner.run(
            "dockd",
            [
                "--demo", "--frames", "20", "--fast", "--bodies", "none", "--quiet",
                "--buttons", "/dev/input/by-id/no-such-remote",
            ])
        #expect(result.status == 0)
        #expect(result.stderr.contains("buttons off: cannot open /dev/input/by-id/no-such-remote (no such device"))
    }

    @Test func dockctlSaysWhenDockdIsNotRunning() throws {
        let result = try ProcessRunner.run("dockctl", ["status", "--socket", "/tmp/no-such-dockd.sock"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("dockd is not running (no control socket at /tmp/no-such-dockd.sock"))
        let usage = try ProcessRunner.run("dockctl", ["move", "--sideways"])
        #expect(usage.status == 64 && usage.stderr.contains("move takes"))
    }

    @Test func aSecondDockdOnTheSameSocketIsRefused() throws {
        let socket = Fixtures.temporaryDirectory("dockctl") + "/dockd.sock"
        var second: ProcessResult?
        _ = try ProcessRunner.run(
            "dockd", ["--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket],
            readyText: "control API on"
        ) { process in
            second = try? ProcessRunner.run("dockd", ["--demo", "--quiet", "--control-socket", socket])
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(second?.status == 1)
        #expect(
            second?.stderr.contains("another dockd is already serving \(socket)") == true, "\(second?.stderr ?? "")")
    }
}

@Suite(.tags(.process), .notInFastRuns) struct EventLogTests {
    @Test func jsonLogLinesCarryTheEventAndItsFields() throws {
        let lines = Protected<[String]>([])
        let log = EventLog(format: .json) { line in lines.withLock { $0.append(line) } }
        log.event("control-api", "control API on /run/x.sock", ["endpoint": "/run/x.sock"])
        EventLog(format: .text) { line in lines.withLock { $0.append(line) } }.event("source", "source demo")
        let written = lines.withLock { $0 }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["event"] as? String == "control-api" && object["endpoint"] as? String == "/run/x.sock")
        #expect(object["message"] as? String == "control API on /run/x.sock" && object["time"] is Double)
        #expect(written[1] == "dockd: source demo")
    }

    @Test func dockdLogsOneJSONObjectPerEvent() throws {
        let result = try ProcessRunner.run(
            "dockd", ["--demo", "--frames", "15", "--fast", "--bodies", "none", "--quiet", "--log-format", "json"])
        #expect(result.status == 0)
        // Our lines only: OpenCV's libpng prints its own warning as text.
        let events = result.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let names = events.compactMap { $0["event"] as? String }
        #expect(names.starts(with: ["source", "pipeline"]) && names.contains("control-api"), "\(names)")
        #expect(events.first { $0["event"] as? String == "pipeline" }?["detector"] as? String == "yunet")
        #expect(!result.stderr.contains("dockd: "))
    }
}
