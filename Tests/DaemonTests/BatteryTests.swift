import CameraSimulation
import ControlClient
import DockCore
import Foundation
import Motion
import TestSupport
import Testing

@testable import ControlServer
@testable import DockEngine
@testable import DockKit
@testable import Pipeline
@testable import Rigs

@Suite(.tags(.unit)) struct BatteryGaugeTests {
    @Test func aPacksChargeFromItsVoltage() {
        let gauge = BatteryGauge()
        // A 3S pack: 12.6 V full, 9.9 V empty; the cells guessed from the voltage.
        let full = gauge.reading(volts: 12.6)
        #expect(full.cells == 3 && full.level == 1 && !full.isLow)
        let mid = gauge.reading(volts: 11.1)
        #expect(mid.cells == 3 && abs(mid.level - 4.0 / 9) < 1e-9 && !mid.isLow)
        #expect(gauge.reading(volts: 10.2).isLow && gauge.reading(volts: 9.0).level == 0)
        #expect(gauge.reading(volts: 8.4).cells == 2 && gauge.reading(volts: 16.8).cells == 4)
        // Configured: four cells at 14.0 V are 3.5 V each, low under 3.6.
        let four = BatteryGauge(cells: 4, lowVoltsPerCell: 3.6).reading(volts: 14.0)
        #expect(four.cells == 4 && four.isLow && abs(four.level - 2.0 / 9) < 1e-9)
    }

    @Test func reportsWhenTheLevelMovesOrTurnsLowAndEveryHalfMinute() {
        let watch = BatteryWatch()
        let t = { (s: Double) in MonotonicInstant.zero.advanced(bySeconds: s) }
        #expect(watch.check(nil, at: t(0)) == nil)
        #expect(watch.check(12.6, at: t(1))?.batteryLevel == 1)
        #expect(watch.check(12.59, at: t(2)) == nil)  // within a percent, and not due
        #expect(watch.check(12.0, at: t(2.5)) == nil)  // checked once a second
        #expect(watch.check(12.0, at: t(3)).map { abs($0.batteryLevel - 2.7 / 2.7 * (4.0 - 3.3) / 0.9) < 1e-9 } == true)
        #expect(watch.check(12.0, at: t(20)) == nil)
        #expect(watch.check(12.0, at: t(33))?.lowBattery == false)  // 30 s since the last report
        #expect(watch.check(10.2, at: t(34))?.lowBattery == true)
    }
}

/// The must-show: a SimpleBGC head on a pseudo-terminal that reports its battery, a live session
/// with the control API, and a DockKit program reading `batteryStates` through dockd's socket.
@Suite(.serialized, .tags(.device), .notInFastRuns) struct HeadBatteryTests {
    @Test func aSimpleBGCBatteryReachesDockKitAndMetrics() async throws {
        let camera = CameraFixtures.webcam()
        camera.stampsWithRealTime = true
        let stop = StopFlag()
        Self.keepFeeding(camera, try CameraFixtures.jpeg(), until: stop)
        let gimbal = try SimpleBGCPeer()
        var c = SessionConfiguration()
        c.source = .camera(camera.path)
        c.captureSize = PixelSize(width: 512, height: 512)
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.gimbal = .device(.simpleBGC(path: gimbal.port.path, baud: 115200))
        c.maximumDuration = 600  // ended by the test: a loaded machine may take long to start
        let session = try Pipeline(live: c, system: camera)
        let manager = DockAccessoryManager()
        let api = ControlAPI(
            manager: manager, accessory: session.accessory, monitor: session.monitor, about: [:], token: nil)
        let path = Fixtures.temporaryDirectory("battery") + "/dockd.sock"
        let server = try HTTPServer(endpoint: .unix(path: path), handler: api.handle)
        manager.dock(session.accessory)
        let finished = Protected(false)
        nonisolated(unsafe) let running = session
        Thread {
            _ = try? running.run(stop: stop)
            finished.withLock { $0 = true }
        }.start()
        defer { Self.end(stop, finished, server) }
        // A program's view of it: the dock dockd serves, through the socket.
        let connection = ControlConnection(endpoint: .unix(path: path))
        let status = try #require(try connection.request("GET", "/v1/status").object)
        #expect(status["reportsBattery"] as? Bool == true)
        let accessory = DockAccessory(remote: try RemoteDock(connection: connection, identity: status["accessory"]))
        let states = try accessory.batteryStates
        // 12.34 V: a 3S pack at 3.71 V a cell; once that is heard, it sags to 3.4 V a cell, low.
        let seen = Task {
            var all: [DockAccessory.BatteryState] = []
            for await state in states {
                all.append(state)
                if all.count == 1 { gimbal.volts = 10.2 }
                if state.lowBattery { break }
            }
            return all
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(60))
            seen.cancel()
        }
        let reports = await seen.value
        timeout.cancel()
        let first = try #require(reports.first)
        #expect(first.name == "battery" && abs(first.batteryLevel - (12.34 / 3 - 3.3) / 0.9) < 0.01, "\(reports)")
        #expect(!first.lowBattery && first.chargeState == .notCharging)
        let low = try #require(reports.last)
        #expect(low.lowBattery && abs(low.batteryLevel - (3.4 - 3.3) / 0.9) < 0.01, "\(reports)")
        let metrics = try connection.request("GET", "/metrics").text
        #expect(
            metrics.contains("opendock_battery_volts 10.2") && metrics.contains("opendock_battery_low 1"), "\(metrics)")

        // Charged again, read by an Apple-shaped monitor: a program of its own on dockd's socket.
        gimbal.volts = 12.34
        let charged = Date().addingTimeInterval(30)
        while Date() < charged, try !connection.request("GET", "/metrics").text.contains("opendock_battery_low 0") {
            try await Task.sleep(for: .milliseconds(100))
        }
        let monitor = try ProcessRunner.run("example-battery-monitor", ["1"], environment: ["OPENDOCK_SOCKET": path])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(monitor.stdout.contains("battery battery: 90 %, not charging\n"), "\(monitor.stdout)")
    }

    /// Frames for as long as the test runs: on a loaded machine the program reading the stream
    /// may be scheduled late, and the session must still be servicing the head when it is.
    static func keepFeeding(_ camera: ScriptedVideoDevice, _ frame: [UInt8], until stop: StopFlag) {
        Thread.detachNewThread {
            while !stop.isSet {
                if camera.scriptedItemsLeft < 60 { camera.append(Array(repeating: .frame(frame), count: 60)) }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    static func end(_ stop: StopFlag, _ finished: Protected<Bool>, _ server: HTTPServer) {
        stop.set()
        while !finished.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
        server.stop()
    }

    /// A head with no battery: `batteryStates` throws, as Apple's does for such a dock.
    @Test func aDockWithoutABatteryRefusesBatteryStates() {
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: SimulatedGimbal()))
        #expect(throws: DockKitError.notSupportedByDevice) { _ = try accessory.batteryStates }
    }
}
