import DockCore
import Foundation
import Motion
import Testing

@testable import DockEngine
@testable import DockKit

@Suite(.tags(.unit)) struct ParkOnExitTests {
    func haltedDock() -> LocalDock {
        let dock = LocalDock(name: "parking", backend: SimulatedGimbal(start: SystemMonotonicClock().now))
        dock.configurePresets(home: nil, privacy: Vector3D(x: 10 * .pi / 180, y: 20 * .pi / 180, z: 0))
        dock.motors.halt(at: dock.now)
        return dock
    }

    @Test func theHaltedHeadMovesToThePresetAndIsHaltedAgain() throws {
        let dock = haltedDock()
        let outcome = dock.park(at: .privacy, timeout: 5) { false }
        guard case .arrived(let seconds, let pose) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(abs(pose.y * 180 / .pi - 20) < 0.5 && abs(pose.x * 180 / .pi - 10) < 0.5, "\(pose)")
        #expect(seconds < 3, "20° at a calm 30°/s: \(seconds) s")
        #expect(!dock.isSystemTrackingEnabled)
        #expect(throws: MotorCommandError.halted) { try dock.motors.command(Vector3D(x: 0, y: 1, z: 0), at: dock.now) }
    }

    @Test func aSecondStopRequestEndsTheMoveWhereTheHeadIs() {
        let dock = haltedDock()
        let asked = Date()
        let outcome = dock.park(at: .privacy, timeout: 5) { Date().timeIntervalSince(asked) > 0.2 }
        #expect(outcome == .interrupted)
        let yaw = dock.motors.backend.motionState(at: dock.now).angularPositions.y * 180 / .pi
        #expect(yaw > 0.5 && yaw < 15, "stopped on the way: \(yaw)°")
        #expect(dock.motors.haltedAt != nil && dock.motors.lastCommand == Vector3D())
    }

    @Test func aDryRunHasNothingToPark() {
        let dock = LocalDock(name: "dry", backend: NullMotorBackend())
        #expect(dock.park(at: .home, timeout: 5) { false } == .notMoved("no motors (dry run)"))
    }
}
