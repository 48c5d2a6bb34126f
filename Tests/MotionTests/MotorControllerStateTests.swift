import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

/// The motor controller's decisions on their own: each transition and what it says to send,
/// with a manual clock and no device.
@Suite(.tags(.unit)) struct MotorControllerStateTests {
    func state() throws -> MotorControllerState {
        let axis = try AxisLimit(positionRange: -1..<1, maximumSpeed: 2)
        return MotorControllerState(
            deviceName: "test head", limits: MotionLimits(yaw: axis, pitch: axis, roll: nil), deadmanTimeout: 0.2,
            silenceTimeout: 1)
    }

    func still(at time: MonotonicInstant) -> MotionState {
        MotionState(angularPositions: Vector3D(), angularVelocities: Vector3D(), time: time)
    }

    let start = MonotonicInstant(seconds: 1)

    @Test func aCommandIsLimitedAndSentAndFeedsTheDeadman() throws {
        var s = try state()
        let decision = s.command(
            Vector3D(x: 0, y: 5, z: 1), motion: still(at: start), silence: nil, speedStep: nil, at: start)
        let command = try decision.result.get()
        #expect(command.limited == Vector3D(x: 0, y: 2, z: 0) && decision.action == .send(command.sent))
        s.commandSent(command.sent, limited: command.limited, at: start)
        #expect(s.lastCommand == command.limited && s.commandsSent == 1)
        // Within the deadman's time nothing happens; past it, one stop, said once.
        #expect(s.service(silence: nil, at: start.advanced(bySeconds: 0.15)) == (.none, false))
        #expect(s.service(silence: nil, at: start.advanced(bySeconds: 0.25)) == (.send(Vector3D()), true))
        #expect(s.service(silence: nil, at: start.advanced(bySeconds: 0.3)) == (.none, false))
        #expect(s.stoppedByDeadman == 1 && s.lastCommand == Vector3D())
    }

    @Test func aSilentDeviceIsStoppedOnceAndRefusedUntilItAnswers() throws {
        var s = try state()
        let first = s.command(
            Vector3D(x: 0, y: 1, z: 0), motion: still(at: start), silence: 1.5, speedStep: nil, at: start)
        #expect(first.action == .send(Vector3D()) && s.mode == .deviceSilent && s.stoppedBySilence == 1)
        #expect(throws: MotorCommandError.deviceSilent("test head", seconds: 1.5)) { try first.result.get() }
        let again = s.command(
            Vector3D(x: 0, y: 1, z: 0), motion: still(at: start), silence: 1.6, speedStep: nil, at: start)
        #expect(again.action == .none && s.stoppedBySilence == 1)
        // It answers again: commands go through.
        let back = s.command(
            Vector3D(x: 0, y: 1, z: 0), motion: still(at: start), silence: 0.1, speedStep: nil, at: start)
        let resumed = try back.result.get()
        #expect(s.mode == .running && resumed.limited == Vector3D(x: 0, y: 1, z: 0))
    }

    @Test func aHaltRefusesEveryCommandUntilReleased() throws {
        var s = try state()
        #expect(s.halt(at: start) == .send(Vector3D()) && s.haltedAt == start)
        #expect(s.halt(at: start.advanced(bySeconds: 1)) == .send(Vector3D()) && s.haltedAt == start)
        let refused = s.command(
            Vector3D(x: 0, y: 1, z: 0), motion: still(at: start), silence: nil, speedStep: nil, at: start)
        #expect(refused.action == .none)
        #expect(throws: MotorCommandError.halted) { try refused.result.get() }
        // A silent device while halted changes nothing: the halt already stopped the motors.
        #expect(s.service(silence: 5, at: start) == (.none, false) && s.stoppedBySilence == 0)
        s.releaseHalt()
        #expect(s.mode == .running && s.haltedAt == nil)
    }

    @Test func aNonFiniteCommandIsRefusedBeforeAnythingElse() throws {
        var s = try state()
        let decision = s.command(
            Vector3D(x: .nan, y: 0, z: 0), motion: still(at: start), silence: 5, speedStep: nil, at: start)
        #expect(decision.action == .none && s.mode == .running && s.stoppedBySilence == 0)
    }
}
