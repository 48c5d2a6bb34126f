import DockCore
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite(.tags(.unit)) struct FramingControllerTests {
    let camera = CameraInformation(size: PixelSize(width: 1280, height: 720), horizontalFieldOfViewDegrees: 60)

    /// A unit rect whose centre sits `degrees` right of the image centre.
    func target(yawDegrees degrees: Double) -> NormalizedRect {
        let x = camera.intrinsics.cx + camera.intrinsics.fx * tan(degrees * .pi / 180)
        return NormalizedRect(x: x / 1280 - 0.05, y: 0.45, width: 0.1, height: 0.1)
    }

    @Test func angularErrorIsExact() {
        let k = camera.intrinsics
        let p = PixelPoint(x: k.cx + k.fx * tan(0.2), y: k.cy)
        let e = AngularError.toCenter(p, intrinsics: k)
        #expect(abs(e.yaw - 0.2) < 1e-12 && abs(e.pitch) < 1e-12)
        // Below the centre: tilt down (positive pitch), whatever the current tilt.
        let below = AngularError.toCenter(PixelPoint(x: k.cx, y: k.cy + k.fy * tan(0.1)), intrinsics: k, pitch: 0.3)
        #expect(abs(below.pitch - 0.1) < 1e-12 && abs(below.yaw) < 1e-12)
    }

    @Test func stillSubjectInsideTheDeadBandCausesNoMotion() {
        var controller = FramingController()
        var t = MonotonicInstant.zero
        for _ in 0..<300 {
            let v = controller.update(target: target(yawDegrees: 1.5), camera: camera, pose: Vector3D(), at: t)
            #expect(v == Vector3D())
            t = t.advanced(bySeconds: 1.0 / 30)
        }
    }

    @Test func subjectOutsideTheBandIsChasedTowardTheCentre() {
        var controller = FramingController()
        var t = MonotonicInstant.zero
        var v = Vector3D()
        for _ in 0..<10 {
            v = controller.update(target: target(yawDegrees: -6), camera: camera, pose: Vector3D(), at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        // Proportional (the subject does not move, so nothing is fed forward): gain × 6° to the
        // left, reached through the slew limit.
        #expect(abs(v.y + FramingConfiguration().yawGain * 6 * .pi / 180) < 1e-6 && v.x == 0)
    }

    @Test func commandsRampAtTheAccelerationLimit() {
        var controller = FramingController()
        _ = controller.update(target: nil, camera: camera, pose: Vector3D(), at: .zero)
        let v = controller.update(target: target(yawDegrees: 25), camera: camera, pose: Vector3D(), at: MonotonicInstant(seconds: 0.01))
        #expect(abs(v.y - 0.08) < 1e-9)
    }

    @Test func losingTheTargetBringsTheAxesToRest() {
        var controller = FramingController()
        var t = MonotonicInstant.zero
        for _ in 0..<30 {
            _ = controller.update(target: target(yawDegrees: 10), camera: camera, pose: Vector3D(), at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        var v = Vector3D(x: 1, y: 1, z: 0)
        for _ in 0..<30 {
            v = controller.update(target: nil, camera: camera, pose: Vector3D(), at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        #expect(v == Vector3D())
    }

    /// A subject walking steadily at 4°/s, followed by a head with 40 ms of latency: once the
    /// head has caught up, the command stays near the subject's rate instead of flipping between
    /// rate + floor and rate − floor (which a motor feels as a stop-start every few frames).
    @Test func steadyWalkIsFollowedWithoutStopStart() {
        var controller = FramingController()
        var head = GimbalDynamics(model: GimbalModel())
        let rate = 4.0 * .pi / 180
        var t = MonotonicInstant.zero
        var late: [Double] = []
        for frame in 0..<150 {
            head.advance(to: t)
            let subject = rate * t.seconds + 3 * .pi / 180
            let error = (subject - head.position.y) * 180 / .pi
            let v = controller.update(ControlInput(target: target(yawDegrees: error), observedAt: t, camera: camera,
                                                   pose: head.position, velocity: head.velocity, time: t))
            head.command(v, at: t)
            if frame >= 60 { late.append(v.y * 180 / .pi) }
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        #expect(late.allSatisfy { $0 > 2 && $0 < 6 }, "\(late.map { String(format: "%.1f", $0) })")
    }
}
