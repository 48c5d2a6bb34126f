import DockCore
import DockKitInProcess
import Foundation
import Motion
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

@Suite(.tags(.unit)) struct MotorAPITests {
    /// An accessory on a simulated gimbal with custom tracking on (system tracking off).
    func dock() -> (DockAccessory, SimulatedGimbal, ManualClock) {
        let clock = ManualClock()
        let gimbal = SimulatedGimbal(model: GimbalModel())
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: gimbal, clock: clock))
        accessory.engineDock.setSystemTrackingEnabled(false)
        return (accessory, gimbal, clock)
    }

    /// Runs the control loop for `seconds` of manual time at 100 Hz.
    func run(
        _ dock: DockAccessory, _ gimbal: SimulatedGimbal, _ clock: ManualClock, seconds: Double,
        until done: () -> Bool = { false }
    ) {
        for _ in 0..<Int(seconds * 100) {
            clock.advance(bySeconds: 0.01)
            gimbal.advance(to: clock.now)
            dock.engineDock.service(at: clock.now)
            if done() { return }
        }
    }

    func degrees(_ v: Double) -> Double { v * 180 / .pi }

    @Test func setOrientationArrivesWhenTheProgressCompletes() async throws {
        let (dock, gimbal, clock) = dock()
        let target = Vector3D(x: 0.1, y: 0.5, z: 0)
        let progress = try dock.setOrientation(target, duration: .seconds(1.5))
        #expect(!progress.isFinished)
        run(dock, gimbal, clock, seconds: 1.2)
        #expect(!progress.isFinished && progress.fractionCompleted > 0.7)
        run(dock, gimbal, clock, seconds: 3) { progress.isFinished }
        #expect(progress.isFinished && clock.now.seconds < 2.0)
        let pose = gimbal.motionState(at: clock.now).angularPositions
        #expect(abs(pose.y - 0.5) < 0.006 && abs(pose.x - 0.1) < 0.006)
    }

    @Test func relativeMovesAddToThePose() async throws {
        let (dock, gimbal, clock) = dock()
        let first = try dock.setOrientation(Vector3D(x: 0, y: 0.2, z: 0), duration: .seconds(0.5), relative: true)
        run(dock, gimbal, clock, seconds: 3) { first.isFinished }
        clock.advance(bySeconds: 1)
        let second = try dock.setOrientation(
            Rotation3D(eulerAngles: Vector3D(x: 0, y: 0.2, z: 0)), duration: .seconds(0.5), relative: true)
        run(dock, gimbal, clock, seconds: 3) { second.isFinished }
        #expect(abs(gimbal.motionState(at: clock.now).angularPositions.y - 0.4) < 0.01)
    }

    @Test func atMostTwoMotionCallsPerSecond() async throws {
        let (dock, _, clock) = dock()
        _ = try dock.setOrientation(Vector3D(x: 0, y: 0.1, z: 0), duration: .seconds(1))
        clock.advance(bySeconds: 0.3)
        _ = try await dock.animate(motion: .yes)
        clock.advance(bySeconds: 0.3)
        await #expect(throws: DockKitError.frameRateTooHigh) { try await dock.animate(motion: .no) }
        clock.advance(bySeconds: 0.5)
        _ = try await dock.animate(motion: .no)
    }

    @Test func motorCallsAreRefusedWhileSystemTrackingIsOn() async throws {
        let (dock, _, _) = dock()
        dock.engineDock.setSystemTrackingEnabled(true)
        #expect(throws: DockKitError.notSupported) { try dock.setOrientation(Vector3D(), duration: .seconds(1)) }
        await #expect(throws: DockKitError.notSupported) { try await dock.animate(motion: .kapow) }
    }

    @Test(arguments: [DockAccessory.Animation.yes, .no, .wakeup, .kapow])
    func animationsMoveAndReturn(_ animation: DockAccessory.Animation) async throws {
        let (dock, gimbal, clock) = dock()
        let start = Vector3D(x: 0.05, y: -0.3, z: 0)
        let move = try dock.setOrientation(start, duration: .seconds(0.5))
        run(dock, gimbal, clock, seconds: 3) { move.isFinished }
        clock.advance(bySeconds: 1)
        let progress = try await dock.animate(motion: animation)
        var excursion = 0.0
        for _ in 0..<600 where !progress.isFinished {
            clock.advance(bySeconds: 0.01)
            gimbal.advance(to: clock.now)
            dock.engineDock.service(at: clock.now)
            let p = gimbal.motionState(at: clock.now).angularPositions
            excursion = max(excursion, abs(degrees(p.x - start.x)), abs(degrees(p.y - start.y)))
        }
        #expect(progress.isFinished)
        #expect(excursion > 5)
        let end = gimbal.motionState(at: clock.now).angularPositions
        #expect(abs(degrees(end.x - start.x)) < 0.5 && abs(degrees(end.y - start.y)) < 0.5)
    }

    @Test func velocityCommandCancelsAMoveInProgress() async throws {
        let (dock, gimbal, clock) = dock()
        let progress = try dock.setOrientation(Vector3D(x: 0, y: 1, z: 0), duration: .seconds(2))
        run(dock, gimbal, clock, seconds: 0.5)
        try await dock.setAngularVelocity(Vector3D())
        #expect(progress.isCancelled)
        run(dock, gimbal, clock, seconds: 1)
        #expect(gimbal.motionState(at: clock.now).angularVelocities.y == 0)
    }

    @Test func motionStatesStreamWhileTheHeadMoves() async throws {
        let (dock, gimbal, clock) = dock()
        let states = try dock.motionStates
        _ = try dock.setOrientation(Vector3D(x: 0, y: 0.3, z: 0), duration: .seconds(1))
        run(dock, gimbal, clock, seconds: 1.2)
        var received: [DockAccessory.MotionState] = []
        for await state in states {
            received.append(state)
            if received.count == 8 { break }
        }
        // The buffer keeps the newest eight: the last ones of the move, in time order.
        #expect(received.count == 8)
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(received.last!.angularPositions.y > 0.25 && received.allSatisfy { $0.error == nil })
    }

    @Test func rotationRoundTrips() {
        let angles = Vector3D(x: 0.2, y: -0.7, z: 0.1)
        let back = Rotation3D(eulerAngles: angles).eulerAngles
        #expect(abs(back.x - angles.x) < 1e-12 && abs(back.y - angles.y) < 1e-12 && abs(back.z - angles.z) < 1e-12)
        #expect(Rotation3D.identity.eulerAngles == Vector3D())
    }
}
