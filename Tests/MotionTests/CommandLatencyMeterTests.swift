import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

/// A simulated head that tells the controller a latency other than its own (a model table
/// that is wrong for this particular camera and link).
private final class MisdeclaredHead: MotorBackend {
    let gimbal: SimulatedGimbal
    let name = "misdeclared head"
    let capabilities: MotorCapabilities

    init(latency: Double, declared: Double) {
        gimbal = SimulatedGimbal(model: GimbalModel(maximumAcceleration: 20, latency: latency))
        var capabilities = gimbal.capabilities
        capabilities.commandLatency = declared
        self.capabilities = capabilities
    }

    func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        try gimbal.setVelocity(velocity, at: time)
    }

    func motionState(at time: MonotonicInstant) -> MotionState { gimbal.motionState(at: time) }
}

@Suite(.tags(.unit)) struct CommandLatencyMeterTests {
    /// Moves from rest `count` times (0.3 s of motion, 0.6 s of rest) at 30 commands a second.
    func startAndStop(_ motors: MotorController, count: Int, from start: Double = 0) throws -> MonotonicInstant {
        var t = MonotonicInstant(seconds: start)
        for _ in 0..<count {
            for frame in 0..<27 {
                try motors.command(Vector3D(x: 0, y: frame < 9 ? 0.5 : 0, z: 0), at: t)
                t = t.advanced(bySeconds: 1.0 / 30)
            }
        }
        return t
    }

    @Test func aHeadSlowerThanItsTableIsMeasuredFromItsStarts() throws {
        let head = MisdeclaredHead(latency: 0.15, declared: 0.04)
        let motors = MotorController(backend: head)
        #expect(motors.capabilities.commandLatency == 0.04)
        _ = try startAndStop(motors, count: 1)
        // One start: already the longer of the two.
        #expect(abs(motors.capabilities.commandLatency - 0.15) < 0.02, "\(motors.capabilities.commandLatency) s")
        _ = try startAndStop(motors, count: 4, from: 0.9)
        let measured = try #require(motors.measuredLatency)
        #expect(abs(measured - 0.15) < 0.02, "measured \(measured) s")
        #expect(motors.capabilities.commandLatency == measured)
        #expect(motors.latencySamples == 5)
    }

    @Test func aFastHeadIsBelievedOnlyAfterThreeStarts() throws {
        let motors = MotorController(backend: MisdeclaredHead(latency: 0.02, declared: 0.2))
        _ = try startAndStop(motors, count: 2)
        // Shorter than the device's figure: not believed from two starts.
        #expect(motors.capabilities.commandLatency == 0.2)
        _ = try startAndStop(motors, count: 2, from: 1.8)
        #expect(motors.capabilities.commandLatency < 0.05)
        let measured = try #require(motors.measuredLatency)
        #expect(measured < 0.05, "measured \(measured) s, against the table's 0.2 s")
    }

    @Test func aHeadWithoutFeedbackKeepsItsTableValue() throws {
        let motors = MotorController(backend: NullMotorBackend())
        _ = try startAndStop(motors, count: 5)
        #expect(motors.measuredLatency == nil)
        #expect(motors.capabilities.commandLatency == MotorCapabilities.typicalLatency)
    }

    /// Reports every 50 ms (a polled serial head): the moment within the interval at which the
    /// move began is found from how far it had got by the first moving report.
    @Test func polledReportsGiveTheLatencyWhateverTheirInterval() {
        var meter = CommandLatencyMeter()
        let latency = 0.11
        for start in [1.0, 2.0, 3.0, 4.0] {
            var t = start - 0.5
            while t < start + 0.5 {
                let moved = max(0, t - (start + latency)) * 0.5
                meter.reported(
                    MotionState(
                        angularPositions: Vector3D(x: 0, y: moved, z: 0), angularVelocities: Vector3D(),
                        time: MonotonicInstant(seconds: t)))
                if abs(t - start) < 1e-9 { meter.sent(Vector3D(x: 0, y: 0.5, z: 0), at: MonotonicInstant(seconds: t)) }
                if abs(t - (start + 0.3)) < 1e-9 { meter.sent(Vector3D(), at: MonotonicInstant(seconds: t)) }
                t = (t * 1000 + 50).rounded() / 1000
            }
        }
        let estimate = meter.estimate ?? 0
        #expect(meter.samples.count == 4)
        #expect(abs(estimate - latency) < 0.002, "estimate \(estimate) s")
    }

    @Test func aStartThatNeverMovesGivesNoSample() {
        var meter = CommandLatencyMeter()
        for i in 0..<100 {
            let t = MonotonicInstant(seconds: Double(i) / 30)
            meter.reported(MotionState(angularPositions: Vector3D(), angularVelocities: Vector3D(), time: t))
            meter.sent(Vector3D(x: 0, y: i % 30 < 5 ? 0.5 : 0, z: 0), at: t)
        }
        #expect(meter.samples.isEmpty && meter.estimate == nil)
    }

    /// A head pushed further than its commands could take it (by hand, or still coasting from
    /// an earlier move) gives no sample, rather than a latency of zero.
    @Test func aHeadMovedFurtherThanAskedGivesNoSample() {
        var meter = CommandLatencyMeter()
        let at = { (t: Double) in MonotonicInstant(seconds: t) }
        meter.reported(MotionState(angularPositions: Vector3D(), angularVelocities: Vector3D(), time: at(0.9)))
        meter.sent(Vector3D(x: 0, y: 0.1, z: 0), at: at(1.0))
        // 0.1 rad/s for 0.05 s is 0.005 rad; it moved 0.05.
        meter.reported(
            MotionState(angularPositions: Vector3D(x: 0, y: 0.05, z: 0), angularVelocities: Vector3D(), time: at(1.05)))
        #expect(meter.samples.isEmpty)
        #expect(
            CommandLatencyMeter.delay(
                [(at(1.0), Vector3D(x: 0, y: 0.1, z: 0))], moved: Vector3D(x: 0, y: 0.002, z: 0), at: at(1.05)
            ).map { abs($0 - 0.03) < 1e-9 } == true)
    }
}
