import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct MotorControllerTests {
    func controller(latency: Double = 0) -> (MotorController, SimulatedGimbal) {
        let gimbal = SimulatedGimbal(
            model: GimbalModel(
                maximumSpeed: 3, maximumAcceleration: 1000, latency: latency,
                yawRange: -1...1, pitchRange: -0.5...0.5))
        return (MotorController(backend: gimbal), gimbal)
    }

    @Test func nonFiniteCommandsAreRefused() {
        let (motors, _) = controller()
        #expect(throws: MotorCommandError.self) { try motors.command(Vector3D(x: .nan, y: 0, z: 0), at: .zero) }
        #expect(throws: MotorCommandError.self) { try motors.command(Vector3D(x: 0, y: .infinity, z: 0), at: .zero) }
        #expect(motors.lastCommand == Vector3D())
    }

    @Test func speedIsClampedToTheSessionLimits() throws {
        let (motors, _) = controller()
        motors.setLimits(
            MotionLimits(
                yaw: try AxisLimit(positionRange: -1..<1, maximumSpeed: 0.5),
                pitch: try AxisLimit(positionRange: -0.5..<0.5, maximumSpeed: 0.2), roll: nil))
        let sent = try motors.command(Vector3D(x: -1, y: 2, z: 1), at: .zero)
        #expect(sent == Vector3D(x: -0.2, y: 0.5, z: 0))
    }

    @Test func motionTowardAnEndSlowsAndStopsInsideTheRange() throws {
        let (motors, gimbal) = controller()
        motors.setLimits(
            MotionLimits(yaw: try AxisLimit(positionRange: -0.3..<0.3, maximumSpeed: 3), pitch: nil, roll: nil))
        var t = MonotonicInstant.zero
        for _ in 0..<300 {
            try motors.command(Vector3D(x: 0, y: 3, z: 0), at: t)
            t = t.advanced(bySeconds: 0.01)
            gimbal.advance(to: t)
        }
        let yaw = gimbal.motionState(at: t).angularPositions.y
        #expect(yaw <= 0.3 && yaw > 0.28)
    }

    @Test func deadmanStopsTheMotorsWhenCommandsStop() throws {
        let (motors, gimbal) = controller()
        try motors.command(Vector3D(x: 0, y: 1, z: 0), at: .zero)
        #expect(!motors.service(at: MonotonicInstant(seconds: 0.19)))
        #expect(motors.service(at: MonotonicInstant(seconds: 0.2)))
        gimbal.advance(to: MonotonicInstant(seconds: 0.25))
        #expect(gimbal.motionState(at: MonotonicInstant(seconds: 0.25)).angularVelocities.y == 0)
        #expect(motors.deadmanStops == 1)
        // Already stopped: nothing more to do.
        #expect(!motors.service(at: MonotonicInstant(seconds: 1)))
    }

    /// 1,000 random command schedules: whenever commands stop, the motors are stopped no later
    /// than 200 ms after the last command (serviced every 10 ms, as the control loop does).
    @Test func deadmanHoldsOnRandomSchedules() throws {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<1000 {
            let (motors, gimbal) = controller()
            var t = MonotonicInstant.zero
            var lastCommand = MonotonicInstant.zero
            var stoppedAt: MonotonicInstant?
            let end = Double.random(in: 0.5...3, using: &generator)
            let silenceFrom = Double.random(in: 0...end, using: &generator)
            while t.seconds < end {
                if t.seconds < silenceFrom, Double.random(in: 0...1, using: &generator) < 0.5 {
                    try motors.command(Vector3D(x: 0, y: Double.random(in: -2...2, using: &generator), z: 0), at: t)
                    lastCommand = t
                }
                if motors.service(at: t) { stoppedAt = t }
                t = t.advanced(bySeconds: 0.01)
            }
            gimbal.advance(to: t)
            if t.seconds(since: lastCommand) >= 0.21 {
                #expect(motors.lastCommand == Vector3D())
                if let stoppedAt { #expect(stoppedAt.seconds(since: lastCommand) <= 0.2 + 1e-9) }
            }
        }
    }
}

@Suite(.tags(.unit)) struct PolledFeedbackTests {
    @Test func silenceCountsOnlyAfterTheDeviceHasAnswered() {
        var feedback = PolledFeedback()
        let t0 = MonotonicInstant.zero
        // A device that never answers position queries (some Pelco-D heads) is never "silent".
        for i in 0..<30 { _ = feedback.queryDue(at: t0.advanced(bySeconds: Double(i) * 0.1), interval: 0.1) }
        #expect(feedback.silence(at: t0.advanced(bySeconds: 3)) == nil)
        feedback.report(Vector3D(), at: t0.advanced(bySeconds: 3))
        #expect(feedback.silence(at: t0.advanced(bySeconds: 3.05)) == nil)
        // Asked at 3.1 s and not answered: silent since then.
        let asked = feedback.queryDue(at: t0.advanced(bySeconds: 3.1), interval: 0.1)
        #expect(asked)
        _ = feedback.queryDue(at: t0.advanced(bySeconds: 3.2), interval: 0.1)
        #expect(feedback.silence(at: t0.advanced(bySeconds: 4.1)).map { abs($0 - 1) < 1e-9 } == true)
        feedback.report(Vector3D(), at: t0.advanced(bySeconds: 4.2))
        #expect(feedback.silence(at: t0.advanced(bySeconds: 4.2)) == nil)
    }
}

@Suite(.tags(.unit)) struct MotorHaltTests {
    @Test func haltStopsAndRefusesEveryLaterCommand() throws {
        let gimbal = SimulatedGimbal(model: GimbalModel(latency: 0))
        let motors = MotorController(backend: gimbal)
        try motors.command(Vector3D(x: 0, y: 0.5, z: 0), at: .zero)
        motors.halt(at: MonotonicInstant(seconds: 0.1))
        #expect(motors.lastCommand == Vector3D() && motors.haltedAt == MonotonicInstant(seconds: 0.1))
        #expect(throws: MotorCommandError.halted) {
            try motors.command(Vector3D(x: 0, y: 0.5, z: 0), at: MonotonicInstant(seconds: 0.2))
        }
        #expect(gimbal.motionState(at: MonotonicInstant(seconds: 1)).angularVelocities == Vector3D())
    }
}
