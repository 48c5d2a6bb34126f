import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

/// The guard against a head mounted the other way: frames at 30 fps of a head turning toward a
/// subject 10° to its right (or below), the subject's offset following from the mount.
@Suite(.tags(.unit)) struct WrongDirectionGuardTests {
    let degree = Double.pi / 180

    /// Feeds `frames` frames of a head turning on `axis` at `speed` (rad/s) and speeding up by
    /// `acceleration` (rad/s², as a control law does while the error grows), while the subject,
    /// moving at `subjectSpeed` across the room, starts 10° off; `inverted` turns the camera the
    /// other way from the reading. The first finding and its frame, if any.
    func chase(
        axis: WrongDirectionGuard.Axis, inverted: Bool, speed: Double = 0, acceleration: Double = 1.2,
        subjectSpeed: Double = 0, frames: Int = 30, subjectAt: (Int) -> Int = { _ in 1 }
    ) -> (finding: WrongDirectionGuard.Finding, frame: Int)? {
        var watch = WrongDirectionGuard()
        for i in 0..<frames {
            let t = Double(i) / 30
            let reading = speed * t + acceleration * t * t / 2
            let cameraTurn = inverted ? -reading : reading
            let offset = 10 * degree + subjectSpeed * t - cameraTurn
            let pose = axis == .pan ? Vector3D(x: 0, y: reading, z: 0) : Vector3D(x: reading, y: 0, z: 0)
            let offsets = axis == .pan ? (yaw: offset, pitch: 0.0) : (yaw: 0.0, pitch: offset)
            if let finding = watch.observe(time: t, subject: subjectAt(i), pose: pose, offset: offsets) {
                return (finding, i)
            }
        }
        return nil
    }

    @Test func aHeadTurningTheRightWayIsLeftAlone() {
        #expect(chase(axis: .pan, inverted: false) == nil)
        #expect(chase(axis: .tilt, inverted: false) == nil)
        // A subject walking away from the head: the error shrinks more slowly, that is all.
        #expect(chase(axis: .pan, inverted: false, subjectSpeed: 0.17) == nil)
    }

    @Test func anInvertedAxisIsFoundOnceTheHeadHasTurnedEnough() throws {
        for axis in [WrongDirectionGuard.Axis.pan, .tilt] {
            let found = try #require(chase(axis: axis, inverted: true))
            #expect(found.finding.axis == axis)
            // 4° of turn, speeding up at 69°/s²: about a third of a second, and the subject fled as far.
            #expect(found.finding.turned >= 0.07 && abs(found.finding.drifted - found.finding.turned) < 1e-9)
            #expect(found.frame <= 12, "frame \(found.frame)")
        }
        // Whatever the subject does meanwhile, walking along with the turn or against it.
        #expect(chase(axis: .pan, inverted: true, subjectSpeed: 0.1) != nil)
        #expect(chase(axis: .pan, inverted: true, subjectSpeed: -0.05) != nil)
    }

    @Test func aSubjectOutrunningARightHeadIsNotARunaway() {
        // The subject moves the same way at twice the head's speed: it drifts off as far as on
        // an inverted head, but where it is in the room stays on a straight line only as "right".
        #expect(chase(axis: .pan, inverted: false, subjectSpeed: 0.7) == nil)
        #expect(chase(axis: .pan, inverted: false, speed: 0.35, acceleration: 0, subjectSpeed: 0.7) == nil)
        // An inverted head turning at an even speed from the start is not told from that either:
        // nothing is decided until its speed changes.
        #expect(chase(axis: .pan, inverted: true, speed: 0.35, acceleration: 0) == nil)
    }

    @Test func aNewSubjectStartsTheComparisonAgain() {
        // The framed subject changes every fourth frame: no window ever holds enough of one.
        #expect(chase(axis: .pan, inverted: true, subjectAt: { $0 / 4 }) == nil)
        // Nobody framed for a frame clears the window too.
        var watch = WrongDirectionGuard()
        for i in 0..<30 {
            let t = Double(i) / 30
            let framed: Int? = i % 3 == 2 ? nil : 1
            #expect(
                watch.observe(
                    time: t, subject: framed, pose: Vector3D(x: 0, y: 0.35 * t, z: 0), offset: (0.17 + 0.35 * t, 0))
                    == nil)
        }
    }
}
