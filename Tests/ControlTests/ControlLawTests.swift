import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

@Suite(.tags(.unit)) struct PIDControlLawTests {
    @Test func deadBandAndNonlinearBandAreContinuous() {
        let (d, n) = (0.01, 0.02)
        #expect(PIDControlLaw.shape(0.005, deadBand: d, nonlinearBand: n) == 0)
        #expect(PIDControlLaw.shape(-0.01, deadBand: d, nonlinearBand: n) == 0)
        // Quadratic inside the nonlinear band: (0.02 − 0.01)² / (2·0.02) = 0.0025.
        #expect(abs(PIDControlLaw.shape(0.02, deadBand: d, nonlinearBand: n) - 0.0025) < 1e-12)
        // Meets the linear range at d + n with value n/2 and slope 1.
        let edge = PIDControlLaw.shape(0.03, deadBand: d, nonlinearBand: n)
        #expect(abs(edge - 0.01) < 1e-12)
        #expect(abs(PIDControlLaw.shape(0.05, deadBand: d, nonlinearBand: n) - 0.03) < 1e-12)
        #expect(abs(PIDControlLaw.shape(-0.05, deadBand: d, nonlinearBand: n) + 0.03) < 1e-12)
    }

    @Test func gainIsInDecibels() {
        var c = PIDConfiguration()
        c.kpDecibels = 40
        #expect(abs(c.kp - 100) < 1e-9)
    }

    @Test func proportionalIntegralAndDerivativeActOnAConstantError() {
        var c = PIDConfiguration()
        c.deadBand = 0
        c.nonlinearBand = 0
        c.td = 0
        var law = PIDControlLaw(configuration: c)
        let camera = CameraInformation(size: PixelSize(width: 1000, height: 1000), horizontalFieldOfViewDegrees: 60)
        // The subject 100 px right of centre: e = 100 / 1000 = 0.1 of the frame.
        let target = NormalizedRect(x: 0.55, y: 0.45, width: 0.1, height: 0.1)
        var t = MonotonicInstant.zero
        var first = 0.0
        var last = 0.0
        for i in 0..<31 {
            let v = law.update(target: target, camera: camera, pose: Vector3D(), at: t)
            if i == 0 { first = v.y }
            last = v.y
            t = t.advanced(bySeconds: 0.1)
        }
        #expect(abs(first - c.kp * 0.1 * c.radiansPerSecondPerUnit) < 1e-9)
        // After 3 s the integral adds Ki·∫e = 0.3 × 0.3 = 0.09 to the 0.1 error.
        #expect(abs(last - c.kp * (0.1 + 0.3 * 0.3) * c.radiansPerSecondPerUnit) < 1e-6)
    }

    @Test func integralDecaysAfterTheFaceIsLost() {
        var law = PIDControlLaw()
        let camera = CameraInformation(size: PixelSize(width: 1000, height: 1000), horizontalFieldOfViewDegrees: 60)
        var t = MonotonicInstant.zero
        for _ in 0..<20 {
            _ = law.update(
                target: NormalizedRect(x: 0.7, y: 0.45, width: 0.1, height: 0.1), camera: camera, pose: Vector3D(),
                at: t)
            t = t.advanced(bySeconds: 0.1)
        }
        var v = Vector3D()
        for _ in 0..<300 {
            v = law.update(target: nil, camera: camera, pose: Vector3D(), at: t)
            t = t.advanced(bySeconds: 0.1)
        }
        #expect(abs(v.y) < 1e-4)
    }
}

@Suite(.tags(.unit)) struct DockLawTests {
    let camera = CameraInformation(size: PixelSize(width: 1280, height: 720), horizontalFieldOfViewDegrees: 60)

    func rect(atYaw degrees: Double) -> NormalizedRect {
        let x = camera.intrinsics.cx + camera.intrinsics.fx * tan(degrees * .pi / 180)
        return NormalizedRect(x: x / 1280 - 0.05, y: 0.45, width: 0.1, height: 0.1)
    }

    /// A subject moving at 6°/s seen by a head that stands still: after a few frames the law
    /// commands 6°/s plus the correction, i.e. it feeds the subject's motion forward.
    @Test func subjectMotionIsFedForward() {
        var law = FramingController()
        var t = MonotonicInstant.zero
        var v = Vector3D()
        for i in 0..<30 {
            let yaw = 3 + 6 * Double(i) / 30
            v = law.update(
                ControlInput(
                    target: rect(atYaw: yaw), observedAt: t, camera: camera, pose: Vector3D(),
                    poseAtObservation: Vector3D(), time: t))
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        let offset: Double = (3 + 6 * 29.0 / 30) * Double.pi / 180
        let feedForward: Double = 6 * Double.pi / 180
        let correction =
            FramingConfiguration().yawGain * (offset + feedForward * FramingConfiguration().actuatorLatency)
        #expect(abs(v.y - (feedForward + correction)) < 0.002)
    }

    @Test func aJumpIsNotMotion() {
        var c = FramingConfiguration()
        c.maximumSpeed = 10
        c.maximumAcceleration = 1000
        var law = FramingController(configuration: c)
        var t = MonotonicInstant.zero
        var v = Vector3D()
        for i in 0..<10 {
            v = law.update(
                ControlInput(
                    target: rect(atYaw: i < 5 ? 0 : 15), observedAt: t, camera: camera, pose: Vector3D(),
                    poseAtObservation: Vector3D(), time: t))
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        // Only the proportional correction of 15° (plus catch-up), no 450°/s "rate".
        let expected = c.yawGain * 15 * .pi / 180 + c.yawGain * (c.catchUpGain - 1) * (15 - 12) * .pi / 180
        #expect(abs(v.y - min(expected, c.maximumSpeed)) < 1e-6)
    }

    @Test func poseHistoryInterpolates() {
        var history = PoseHistory(capacity: 4)
        history.record(Vector3D(x: 0, y: 0, z: 0), at: .zero)
        history.record(Vector3D(x: 0, y: 1, z: 0), at: MonotonicInstant(seconds: 1))
        #expect(history.pose(at: MonotonicInstant(seconds: 0.25))?.y == 0.25)
        #expect(history.pose(at: MonotonicInstant(seconds: 2)) == nil)
        for i in 2..<8 { history.record(Vector3D(x: 0, y: Double(i), z: 0), at: MonotonicInstant(seconds: Double(i))) }
        #expect(history.pose(at: .zero) == nil)  // bounded: the oldest samples are gone
        #expect(history.pose(at: MonotonicInstant(seconds: 6.5))?.y == 6.5)
    }
}
