import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct SpeedStepModulatorTests {
    let step = 4.0 * .pi / 180

    /// Sent at 30 Hz for 3 s, what the device did on average and how often it was told.
    func run(_ speed: Double, interval: (Int) -> Double = { _ in 1.0 / 30 }) -> (average: Double, outputs: [Double]) {
        var modulator = SpeedStepModulator()
        var t = MonotonicInstant.zero
        var angle = 0.0
        var outputs: [Double] = []
        var elapsed = 0.0
        for i in 0..<90 {
            let out = modulator.output(for: Vector3D(x: 0, y: speed, z: 0), step: step, at: t).y
            outputs.append(out)
            let dt = interval(i)
            angle += out * dt
            elapsed += dt
            t = t.advanced(bySeconds: dt)
        }
        return (angle / elapsed, outputs)
    }

    @Test func aSpeedBelowTheStepIsItsDutyCycle() {
        for fraction in [0.1, 0.25, 0.5, 0.9] {
            let result = run(fraction * step)
            #expect(abs(result.average / step - fraction) < 0.03, "\(fraction): \(result.average / step)")
            #expect(result.outputs.allSatisfy { $0 == 0 || $0 == step })
        }
        // Backwards too, and with the control ticks uneven.
        let uneven = run(-0.3 * step) { i in i % 3 == 0 ? 0.05 : 0.025 }
        #expect(abs(uneven.average / step + 0.3) < 0.03, "\(uneven.average / step)")
    }

    @Test func stopsAndWholeStepsPassUnchanged() {
        var modulator = SpeedStepModulator()
        _ = modulator.output(for: Vector3D(x: 0, y: 0.5 * step, z: 0), step: step, at: .zero)
        let stop = modulator.output(for: Vector3D(), step: step, at: MonotonicInstant(seconds: 0.033))
        #expect(stop == Vector3D())
        let fast = Vector3D(x: -2.5 * step, y: 3 * step, z: 0)
        #expect(modulator.output(for: fast, step: step, at: MonotonicInstant(seconds: 0.066)) == fast)
        #expect(modulator.output(for: Vector3D(x: 0, y: 0.01, z: 0), step: nil, at: .zero).y == 0.01)
    }
}

/// Slow pans through the motor controller on emulated heads over a real pseudo-terminal: a
/// speed below the slowest step still moves the head, steadily.
@Suite(.serialized, .tags(.device)) struct FineSpeedDeviceTests {
    /// Commands `speed` (rad/s) at 30 Hz for `seconds`; the head's yaw each half second.
    func pan(_ controller: MotorController, speed: Double, seconds: Double, pose: () -> Double) -> [Double] {
        let clock = SystemMonotonicClock()
        let start = clock.now
        var samples = [pose()]
        var nextSample = 0.5
        while clock.now.seconds(since: start) < seconds {
            _ = try? controller.command(Vector3D(x: 0, y: speed, z: 0), at: clock.now)
            if clock.now.seconds(since: start) >= nextSample {
                samples.append(pose())
                nextSample += 0.5
            }
            Thread.sleep(forTimeInterval: 1.0 / 30)
        }
        controller.stop(at: clock.now)
        return samples
    }

    func expectSteady(_ yaws: [Double], degreesPerSecond: Double, _ what: String) {
        let steps = zip(yaws.dropFirst(), yaws).map { ($0 - $1) * 180 / .pi }
        let total = steps.reduce(0, +)
        let expected = degreesPerSecond * 0.5 * Double(steps.count)
        #expect(abs(total - expected) < 0.35 * expected + 0.2, "\(what): \(total)° where \(expected)° was asked")
        // Steady: every half second moved forward, none by more than twice its share.
        let share = degreesPerSecond * 0.5
        #expect(
            steps.allSatisfy { $0 > 0.2 * share && $0 < 2.5 * share * Sanitizer.slowdown },
            "\(what): \(steps.map { String(format: "%.2f", $0) })")
    }

    @Test func aOneDegreePerSecondPanMovesAVISCACameraSteadily() throws {
        let head = try SerialHead.visca()
        let (camera, backend) = (head.device, head.backend)
        defer { backend.close() }
        let slowest = try #require(backend.capabilities.speedStep) * 180 / .pi
        #expect(slowest > 2, "1°/s is below this camera's slowest step (\(slowest)°/s): it would round to a stop")
        let yaws = pan(MotorController(backend: backend), speed: .pi / 180, seconds: 3) { camera.pose.y }
        expectSteady(yaws, degreesPerSecond: 1, "VISCA")
    }

    @Test func aSlowPanMovesAPelcoHeadSteadily() throws {
        let link = try SerialHead.pelco()
        let (head, backend) = (link.device, link.backend)
        defer { backend.close() }
        let slowest = try #require(backend.capabilities.speedStep) * 180 / .pi
        let controller = MotorController(backend: backend)
        expectSteady(pan(controller, speed: .pi / 180, seconds: 3) { head.pose.y }, degreesPerSecond: 1, "Pelco-D 1°/s")
        // Below its slowest step (about 0.94°/s), a third of it.
        let slow = slowest / 3
        expectSteady(
            pan(controller, speed: slow * .pi / 180, seconds: 3) { head.pose.y }, degreesPerSecond: slow,
            "Pelco-D \(slow)°/s")
    }
}
