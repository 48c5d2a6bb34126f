import DockCore
import Foundation
import Motion
import TestSupport
import Testing

@testable import Control

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

    /// From an aim point off the centre (framing left or right): the angle between the two rays,
    /// not the pinhole offset from the aim.
    @Test func angularErrorBetweenTwoPointsIsTheTurnBetweenThem() {
        let k = camera.intrinsics
        let aim = PixelPoint(x: k.cx + k.fx * tan(-0.3), y: k.cy)
        let point = PixelPoint(x: k.cx + k.fx * tan(-0.1), y: k.cy)
        let e = AngularError.between(point, aim, intrinsics: k)
        #expect(abs(e.yaw - 0.2) < 1e-12 && abs(e.pitch) < 1e-12)
        let none = AngularError.between(aim, aim, intrinsics: k, pitch: 0.2)
        #expect(none.yaw == 0 && none.pitch == 0)
        let centred = AngularError.between(point, PixelPoint(x: k.cx, y: k.cy), intrinsics: k)
        #expect(abs(centred.yaw - AngularError.toCenter(point, intrinsics: k).yaw) < 1e-12)
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
        let v = controller.update(
            target: target(yawDegrees: 25), camera: camera, pose: Vector3D(), at: MonotonicInstant(seconds: 0.01))
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
            let v = controller.update(
                ControlInput(
                    target: target(yawDegrees: error), observedAt: t, camera: camera,
                    pose: head.position, velocity: head.velocity, time: t))
            head.command(v, at: t)
            if frame >= 60 { late.append(v.y * 180 / .pi) }
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        #expect(late.allSatisfy { $0 > 2 && $0 < 6 }, "\(late.map { String(format: "%.1f", $0) })")
    }

    /// Runs the law against a simulated head for `seconds`, the subject's true yaw (degrees)
    /// a function of time (nil: not seen); returns the head's yaw and the commands (degrees).
    func closedLoop(
        _ controller: inout FramingController, head model: GimbalModel = GimbalModel(), seconds: Double,
        searching: Bool = false, jitter: Double = 0, subject: (Double) -> Double?
    ) -> (yaw: [Double], command: [Double]) {
        var head = GimbalDynamics(model: model)
        let device = SimulatedGimbal(model: model).capabilities
        var t = MonotonicInstant.zero
        var yaws: [Double] = []
        var commands: [Double] = []
        for frame in 0..<Int(seconds * 30) {
            head.advance(to: t)
            let seen = subject(t.seconds).map { degrees -> NormalizedRect in
                let wobble = jitter * sin(Double(frame) * 2.39)
                return target(yawDegrees: degrees + wobble - head.position.y * 180 / .pi)
            }
            let v = controller.update(
                ControlInput(
                    target: seen, observedAt: t, camera: camera, pose: head.position, velocity: head.velocity,
                    time: t, device: device, searchWhenLost: searching))
            head.command(v, at: t)
            yaws.append(head.position.y * 180 / .pi)
            commands.append(v.y * 180 / .pi)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        return (yaws, commands)
    }

    func starts(_ commands: [Double]) -> Int {
        zip(commands.dropFirst(), commands).filter { now, before in abs(now) > 0.2 && abs(before) <= 0.2 }.count
    }

    /// A stroll at 2.5°/s with a detector's box jitter: one start, then a steady pan near the
    /// subject's rate; the head stops with the subject and does not come back for it.
    @Test func aSlowWalkIsFollowedInOneSmoothMove() {
        var controller = FramingController()
        let run = closedLoop(&controller, seconds: 10, jitter: 0.3) { t in
            t < 1 ? 0 : t < 7 ? 2.5 * (t - 1) : 15
        }
        #expect(starts(run.command) == 1, "\(starts(run.command)) starts")
        let following = run.command[90..<200]
        #expect(following.allSatisfy { $0 > 1 && $0 < 4.5 }, "\(following.map { String(format: "%.1f", $0) })")
        #expect(run.command.allSatisfy { $0 >= 0 }, "no reversal")
        #expect(abs(run.yaw.last! - 15) < 2, "ends near the subject: \(run.yaw.last!)°")
    }

    /// A correction towards a still subject 4° off ends by easing out over a few frames, not
    /// with a jolt from the correction's floor speed to rest in one frame.
    @Test func aSlowCorrectionEasesOutToRest() {
        var controller = FramingController()
        let run = closedLoop(&controller, seconds: 2) { _ in 4 }
        let last = run.command.lastIndex { abs($0) > 0.2 }!
        let ending = run.command[(last - 3)...(last + 1)]
        let decelerations = zip(ending, ending.dropFirst()).map { ($0 - $1) * 30 }
        let ease = FramingConfiguration().easeOutDeceleration * 180 / .pi
        #expect(decelerations.allSatisfy { $0 <= ease + 1e-6 }, "°/s² \(decelerations)")
        #expect(ending.filter { $0 > 0.2 && $0 < 3 }.count >= 1, "\(ending.map { String(format: "%.2f", $0) })")
        #expect(starts([0] + run.command) == 1, "one move, from rest to rest")
        #expect(abs(run.yaw.last! - 4) < 0.6, "\(run.yaw.last!)°")
    }

    /// Fast motion that is told to stop (the subject lost without leave to search) brakes at the
    /// full acceleration: easing out is for creeping speeds towards a subject in view only.
    @Test func aFastMoveBrakesAtTheFullAcceleration() {
        var controller = FramingController()
        let run = closedLoop(&controller, seconds: 1.5) { t in t < 0.3 ? 40 : nil }
        let lostAt = 9
        let speed = run.command[lostAt - 1]
        #expect(speed > 20, "\(speed)°/s when lost")
        let stopFrames = run.command[lostAt...].firstIndex { $0 == 0 }! - lostAt
        // Full deceleration down to the easing speed, then at most the ease from there.
        let c = FramingConfiguration()
        let full = (speed - c.easeOutBelow * 180 / .pi) / (c.maximumAcceleration * 180 / .pi / 30)
        let ease = c.easeOutBelow / (c.easeOutDeceleration / 30)
        #expect(
            Double(stopFrames) <= full.rounded(.up) + ease.rounded(.up), "\(stopFrames) frames to stop from \(speed)°/s"
        )
    }

    /// A step of 18° on a slow head with speed steps of 2.5°/s and 80 ms of latency, or 160 ms:
    /// the law knows the device, counts the commands still in flight (not just the head's speed
    /// now) and brakes in time.
    @Test(arguments: [0.08, 0.16]) func aStepOnASlowLatentHeadDoesNotOvershoot(latency: Double) {
        let visca = GimbalModel(
            maximumSpeed: 60 * .pi / 180, maximumAcceleration: 180 * .pi / 180, latency: latency,
            speedStep: 2.5 * .pi / 180)
        var controller = FramingController()
        let run = closedLoop(&controller, head: visca, seconds: 3) { _ in 18 }
        let overshoot = (run.yaw.max()! - 18) / 18
        #expect(overshoot < 0.1, "overshoot \(overshoot * 100) %")
        let settled = run.yaw.indices.first { i in run.yaw[i...].allSatisfy { abs($0 - 18) < 2.5 } }
        #expect(settled.map { Double($0) / 30 < 1.2 } == true, "settled at frame \(String(describing: settled))")
    }

    /// A subject walks out of view and is not seen again: the head goes on its way, looks about,
    /// then comes home. Without leave to search (a client's own tracking) it just stops.
    @Test func aLostSubjectIsFollowedOutLookedForAndLeftForHome() {
        var settings = FramingConfiguration()
        settings.search.homeAfter = 6
        var controller = FramingController(configuration: settings)
        let walk: (Double) -> Double? = { t in t < 1 ? 0 : t < 3 ? 15 * (t - 1) : nil }
        let run = closedLoop(&controller, seconds: 14, searching: true, subject: walk)
        let lostAt = 90
        #expect(
            run.yaw[lostAt + 20] > run.yaw[lostAt] + 5, "keeps going: \(run.yaw[lostAt])° → \(run.yaw[lostAt + 20])°")
        #expect(controller.searchPhase == .home)
        #expect(abs(run.yaw.last!) < 1, "home: \(run.yaw.last!)°")
        var passive = FramingController(configuration: settings)
        let stopped = closedLoop(&passive, seconds: 5, subject: walk)
        #expect(stopped.command.suffix(30).allSatisfy { $0 == 0 })
        #expect(abs(stopped.yaw.last! - stopped.yaw[lostAt + 15]) < 0.5, "stays where it stopped")
    }
}
