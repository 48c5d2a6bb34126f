import DockCore
import DockKitInProcess
import Foundation
import Motion
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

/// The programs in Examples/, written against `import DockKit` alone as a client would, run
/// against the simulated gimbal (OPENDOCK_GIMBAL=sim) and checked by what they print.
@Suite(.tags(.process), .notInFastRuns) struct ExampleProgramsTests {
    static let sim = ["OPENDOCK_GIMBAL": "sim"]

    /// The signed degrees after `label` in the output, e.g. "right: yaw +10.3°".
    func degrees(after label: String, in text: String) -> [Double] {
        text.split(separator: "\n").filter { $0.contains(label) }.compactMap { line in
            guard let range = line.range(of: label) else { return nil }
            let rest = line[range.upperBound...].drop { $0 == " " }
            return Double(rest.prefix { "+-.0123456789".contains($0) })
        }
    }

    @Test func sweepTurnsRightThenLeftThenBackAndHandsTrackingBack() throws {
        let result = try ProcessRunner.run("example-sweep", ["0.5"], environment: Self.sim)
        #expect(result.status == 0, "\(result.stderr)")
        let right = try #require(degrees(after: "right: yaw", in: result.stdout).first)
        let left = try #require(degrees(after: "left: yaw", in: result.stdout).first)
        let back = try #require(degrees(after: "back: yaw", in: result.stdout).first)
        // 0.4 rad/s for 0.5 s is 11.5°, less the acceleration ramp.
        #expect((7...12).contains(right) && (-12 ... -6).contains(left) && abs(back) < 3, "\(result.stdout)")
        #expect(result.stdout.contains("system tracking on"))
    }

    @Test func lookAroundArrivesAtEachOrientation() throws {
        let result = try ProcessRunner.run("example-look-around", [], environment: Self.sim)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("arrived") }
        #expect(lines.count == 4)
        for line in lines {
            let numbers = line.split(separator: " ").compactMap { Double($0.filter { "+-.0123456789".contains($0) }) }
            #expect(
                numbers.count == 4 && abs(numbers[0] - numbers[2]) < 1 && abs(numbers[1] - numbers[3]) < 1, "\(line)")
        }
    }

    @Test func customTrackingFramesThePersonAt20Hz() throws {
        let result = try ProcessRunner.run("example-custom-tracking", ["3"], environment: Self.sim)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("60 track calls at 20 Hz, 0 refused"), "\(result.stdout)")
        let head = try #require(degrees(after: "head turned", in: result.stdout).first)
        #expect(abs(head - 20) < 2, "\(result.stdout)")
    }

    @Test func aHeldButtonPansAndItsReleaseStops() throws {
        let fifo = Fixtures.temporaryDirectory("buttons") + "/remote"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try ProcessRunner.run(
            "example-button-panorama", ["1"], environment: Self.sim.merging(["OPENDOCK_BUTTONS": fifo]) { $1 },
            readyText: "hold a button to pan"
        ) { _ in
            // The remote: a key held for a second (as the kernel writes input events).
            guard let remote = FileHandle(forWritingAtPath: fifo) else { return }
            remote.write(
                Data(
                    InputEventDecoder.encode(InputEvent(type: 1, code: 256, value: 1))
                        + InputEventDecoder.encode(InputEvent(type: 0, code: 0, value: 0))))
            Thread.sleep(forTimeInterval: 1)
            remote.write(Data(InputEventDecoder.encode(InputEvent(type: 1, code: 256, value: 0))))
            Thread.sleep(forTimeInterval: 0.5)
            try? remote.close()
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("button 256 pressed: panning"))
        let yaw = try #require(degrees(after: "stopped at yaw", in: result.stdout).first)
        // 0.3 rad/s held for about a second.
        #expect((10...25).contains(yaw), "\(result.stdout)")
    }

    @Test func withoutAGimbalInTheEnvironmentASimulatorIsNotInvented() throws {
        let manager = DockAccessoryManager()
        try manager.discoverOnce([:])
        #expect(manager.accessories.isEmpty)
        #expect(throws: DockKitError.notSupportedByDevice) {
            try DockAccessoryManager().discoverOnce(["OPENDOCK_GIMBAL": "simplebgc:/dev/ttyUSB0"])
        }
    }
}

@Suite(.tags(.device)) struct AccessoryEventTests {
    @Test func inputEventsAreDecodedAcrossReads() {
        var decoder = InputEventDecoder()
        let bytes =
            InputEventDecoder.encode(InputEvent(type: 1, code: 212, value: 1))
            + InputEventDecoder.encode(InputEvent(type: 1, code: 28, value: -2))
        #expect(decoder.feed(bytes[0..<10]).isEmpty)
        let events = decoder.feed(bytes[10...])
        #expect(events == [InputEvent(type: 1, code: 212, value: 1), InputEvent(type: 1, code: 28, value: -2)])
    }

    @Test func keysMapToDockKitEvents() {
        let map = ButtonMap()
        func key(_ code: UInt16, _ value: Int32) -> [ButtonMap.Action] {
            map.actions(for: InputEvent(type: 1, code: code, value: value))
        }
        #expect(key(212, 1) == [.event(.cameraShutter)])
        #expect(key(212, 0).isEmpty)
        #expect(key(227, 1) == [.event(.cameraFlip)])
        #expect(key(418, 1) == [.event(.cameraZoom(factor: 1))] && key(534, 1) == [.event(.cameraZoom(factor: -1))])
        #expect(
            key(256, 1) == [.event(.button(id: 256, pressed: true))]
                && key(256, 0) == [.event(.button(id: 256, pressed: false))])
        #expect(key(256, 2).isEmpty, "auto-repeat is ignored")
        #expect(key(164, 1) == [.event(.button(id: 164, pressed: true)), .toggleSystemTracking])
        #expect(map.actions(for: InputEvent(type: 2, code: 0, value: 5)).isEmpty, "relative motion is not a button")
    }

    @Test func theTrackingKeyTogglesSystemTrackingAndEventsReachSubscribers() async throws {
        let path = Fixtures.temporaryDirectory("buttons") + "/events"
        var bytes: [UInt8] = []
        for (code, value) in [(164, 1), (164, 0), (212, 1), (212, 0)] as [(UInt16, Int32)] {
            bytes += InputEventDecoder.encode(InputEvent(type: 1, code: code, value: value))
        }
        let manager = DockAccessoryManager()
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: SimulatedGimbal()))
        manager.dock(accessory.engineDock)
        var events = try accessory.accessoryEvents.makeAsyncIterator()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let reader = try ButtonReader(path: path, accessory: accessory.engineDock, manager: manager)
        defer { reader.stop() }
        #expect(await events.next() == .button(id: 164, pressed: true))
        #expect(await events.next() == .button(id: 164, pressed: false))
        #expect(await events.next() == .cameraShutter)
        #expect(!manager.isSystemTrackingEnabled && !accessory.engineDock.isSystemTrackingEnabled)
        #expect(throws: DockKitError.notConnected) {
            try ButtonReader(path: "/dev/input/no-such-event", accessory: accessory.engineDock, manager: manager)
        }
    }

    @Test func stateChangesStartWithTheDockedAndFollowUndocking() async throws {
        let manager = DockAccessoryManager()
        let first = DockAccessory(local: LocalDock(name: "one", backend: SimulatedGimbal()))
        manager.dock(first.engineDock)
        var changes = try manager.accessoryStateChanges.makeAsyncIterator()
        let docked = await changes.next()
        #expect(docked?.state == .docked && docked?.accessory == first)
        manager.undock(first)
        let undocked = await changes.next()
        #expect(undocked?.state == .undocked && undocked?.accessory == first)
        let second = DockAccessory(local: LocalDock(name: "two", backend: SimulatedGimbal()))
        manager.dock(second.engineDock)
        #expect(await changes.next()?.accessory == second)
    }

    @Test func aHeldVelocityLastsAcrossTheDeadmanWhileTheLoopRuns() async throws {
        let clock = ManualClock()
        let gimbal = SimulatedGimbal(model: GimbalModel(latency: 0))
        let dock = DockAccessory(local: LocalDock(name: "test", backend: gimbal, clock: clock))
        dock.engineDock.setSystemTrackingEnabled(false)
        try await dock.setAngularVelocity(Vector3D(x: 0, y: 0.3, z: 0))
        for _ in 0..<100 {  // 1 s of control ticks, five times the deadman's 200 ms
            clock.advance(bySeconds: 0.01)
            dock.engineDock.service(at: clock.now)
        }
        #expect(abs(gimbal.motionState(at: clock.now).angularVelocities.y - 0.3) < 1e-6)
        #expect(dock.engineDock.motors.deadmanStops == 0)
        try await dock.setAngularVelocity(Vector3D())
        for _ in 0..<10 {
            clock.advance(bySeconds: 0.01)
            dock.engineDock.service(at: clock.now)
        }
        #expect(gimbal.motionState(at: clock.now).angularVelocities.y == 0)
        // A velocity sent to the motors without the accessory holding it stops after 200 ms.
        try dock.engineDock.motors.command(Vector3D(x: 0, y: 0.3, z: 0), at: clock.now)
        clock.advance(bySeconds: 0.25)
        dock.engineDock.director.cancel()
        dock.engineDock.service(at: clock.now)
        #expect(dock.engineDock.motors.deadmanStops == 1 && dock.engineDock.motors.lastCommand == Vector3D())
    }
}
