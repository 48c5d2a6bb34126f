import DockCore
import Foundation
import TestSupport
import Testing

@testable import DockKit

/// The programs in Apple's shapes (the sample's service actor, the selection recipes, the
/// battery and event monitors) as dockd's clients, checked by what they do to dockd's dock and
/// what they print.
extension DockKitClientTests {
    /// Presses keys on dockd's remote once `socket`'s dockd has an accessory-event client.
    func pressKeys(_ codes: [UInt16], on remote: String, socket: String) {
        let subscribed = Date().addingTimeInterval(30 * Sanitizer.slowdown)
        while Date() < subscribed,
            (try? ProcessRunner.run("dockctl", ["metrics", "--socket", socket]))?.stdout.contains(
                "opendock_event_stream_clients{stream=\"accessory\"} 1") != true
        {
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard let keys = FileHandle(forWritingAtPath: remote) else { return }
        for code in codes {
            keys.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: code, value: 1))))
            keys.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: code, value: 0))))
            Thread.sleep(forTimeInterval: 0.3)
        }
        try? keys.close()
    }

    func remoteFIFO() -> String {
        let remote = Fixtures.temporaryDirectory("dockkit-client") + "/remote"
        #expect(mkfifo(remote, 0o600) == 0)
        return remote
    }

    @Test func theSampleServiceSwitchesModesAndTheKeysDriveItsCamera() throws {
        let remote = remoteFIFO()
        try withDockd(["--buttons", remote]) { socket in
            let run = try ProcessRunner.run(
                "example-dock-control-service", ["3"], environment: ["OPENDOCK_SOCKET": socket],
                readyText: "press the camera keys"
            ) { _ in self.pressKeys([212, 227, 418], on: remote, socket: socket) }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("with system tracking on"), "\(run.stdout)")
            // Manual mode: 0.3 rad/s for a second is 17°, less the ramps; tracking was off meanwhile.
            let turned = try #require(numbers(after: "manual: turned", in: run.stdout).first)
            #expect((9...22).contains(turned), "\(run.stdout)")
            #expect(run.stdout.contains("with system tracking off\n"), "\(run.stdout)")
            #expect(run.stdout.contains("system: tracking on"), "\(run.stdout)")
            for line in ["capture started", "camera switched to the back", "zoom in", "done after 3 camera events"] {
                #expect(run.stdout.contains(line), "\(line): \(run.stdout)")
            }
            #expect(status(socket)["systemTracking"] as? Bool == true)
        }
    }

    @Test func theEventMonitorPrintsEachKeyAndTheTrackingButtonsState() throws {
        let remote = remoteFIFO()
        try withDockd(["--buttons", remote]) { socket in
            let run = try ProcessRunner.run(
                "example-event-monitor", ["5"], environment: ["OPENDOCK_SOCKET": socket],
                readyText: "listening for events"
            ) { _ in self.pressKeys([164, 212, 418, 256], on: remote, socket: socket) }
            #expect(run.status == 0, "\(run.stderr)")
            let events = run.stdout.split(separator: "\n").filter { $0.hasPrefix("event:") }
            #expect(
                events == [
                    "event: button 164 pressed", "event: button 164 released", "event: shutter", "event: zoom in",
                    "event: button 256 pressed",
                ], "\(run.stdout)")
            // Play/pause is the tracking button: tracking went off, and the dock said so.
            #expect(run.stdout.contains("state: docked, tracking button off"), "\(run.stdout)")
            #expect(status(socket)["systemTracking"] as? Bool == false)
        }
    }

    @Test func aDockWithoutABatteryIsSaidToHaveNone() throws {
        try withDockd { socket in
            let run = try client("example-battery-monitor", [], socket: socket)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("this dock reports no battery"), "\(run.stdout)")
        }
    }

    /// Dockd's status while `recipe` runs, five times a second: each sample with a selection.
    func selection(_ recipe: String, seconds: Double, socket: String) throws -> (
        run: ProcessResult, samples: [(locked: [String], subjects: [[String: Any]])]
    ) {
        var samples: [(locked: [String], subjects: [[String: Any]])] = []
        let run = try ProcessRunner.run(
            "example-subject-selection", [recipe, "\(seconds)"], environment: ["OPENDOCK_SOCKET": socket]
        ) { process in
            let end = Date().addingTimeInterval(60 * Sanitizer.slowdown)
            while process.isRunning && Date() < end {
                let now = self.status(socket)
                let locked = now["locked"] as? [String] ?? []
                if !locked.isEmpty { samples.append((locked, now["subjects"] as? [[String: Any]] ?? [])) }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        return (run, samples)
    }

    @Test func theSelectionRecipesSelectWhomTheySay() throws {
        let scene = Fixtures.repositoryRoot + "/scenes/two-people.json"
        try withDockd(["--scene", scene, "--loop"]) { socket in
            // The most salient: one subject, the one ranked first (a status read between a change
            // of rank and the recipe's answer to it may disagree: most agree).
            let salient = try selection("salient", seconds: 4, socket: socket)
            #expect(salient.run.status == 0, "\(salient.run.stderr)")
            let agreeing = salient.samples.filter { sample in
                let first = sample.subjects.filter { $0["saliencyRank"] as? Int == 1 }.compactMap {
                    $0["id"] as? String
                }
                return sample.locked.count == 1 && sample.locked == first
            }
            #expect(
                salient.samples.count >= 5 && agreeing.count * 10 >= salient.samples.count * 7,
                "\(agreeing.count) of \(salient.samples.count)")

            // Both people face the camera: both end up selected.
            let engaged = try selection("engaged", seconds: 3, socket: socket)
            #expect(engaged.run.status == 0, "\(engaged.run.stderr)")
            #expect(engaged.samples.last?.locked.count == 2, "\(engaged.samples.map(\.locked))")

            // They take turns, a few seconds each: in 12 s the recipe selects each of them.
            let speaker = try selection("speaker", seconds: 12, socket: socket)
            #expect(speaker.run.status == 0, "\(speaker.run.stderr)")
            let picks = speaker.run.stdout.split(separator: "\n").filter { $0.contains("selected") }
                .compactMap { $0.split(separator: " ").dropFirst(3).first.map(String.init) }
            #expect(Set(picks).count >= 2, "\(speaker.run.stdout)")
            let last = speaker.samples.last?.locked ?? []
            #expect(
                last.count == 1 && picks.last.map { last[0].lowercased().hasPrefix($0.lowercased()) } == true,
                "\(last) \(speaker.run.stdout)")
        }
    }
}
