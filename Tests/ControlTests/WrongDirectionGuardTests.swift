import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

/// The guard against a head mounted the other way: frames at 30 fps of a head turning toward a
/// subject 10° to its right (or below), the subject's offset following from the mount.
@Suite(.tags(.unit)) struct WrongDirectionGuardTests {
    let degree = Double.pi / 180

    /// Feeds `frames` frames of a head turning at `speed` (rad/s) on `axis` while the subject,
    /// moving at `subjectSpeed` across the world, starts 10° off; `inverted` turns the camera
    /// the other way from the reading. The first finding and its frame, if any.
    func chase(
        axis: WrongDirectionGuard.Axis, inverted: Bool, speed: Double = 0.35, subjectSpeed: Double = 0,
        frames: Int = 30, subjectAt: (Int) -> Int = { _ in 1 }
    ) -> (finding: WrongDirectionGuard.Finding, frame: Int)? {
        var watch = WrongDirectionGuard()
        for i in 0..<frames {
            let t = Double(i) / 30
            let reading = speed * t
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
        // A subject walking away from the head at half its speed: the error shrinks more slowly, that is all.
        #expect(chase(axis: .pan, inverted: false, subjectSpeed: 0.17) == nil)
    }

    @Test func anInvertedAxisIsFoundOnceTheHeadHasTurnedEnough() throws {
        for axis in [WrongDirectionGuard.Axis.pan, .tilt] {
            let found = try #require(chase(axis: axis, inverted: true))
            #expect(found.finding.axis == axis)
            // 4° of turn at 20°/s: about 0.2 s, and the subject fled as far the same way.
            #expect(found.finding.turned >= 0.07 && abs(found.finding.drifted - found.finding.turned) < 1e-9)
            #expect(found.frame <= 7, "frame \(found.frame)")
        }
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

    @Test func aSubjectOutrunningTheHeadByFarIsTakenForARunaway() {
        // The one case a right head is mistaken: the subject moving the same way at 1.6 times
        // the head's speed or more, sustained for the window. A person does not outrun a head
        // chasing them that long; a head about to be overtaken is wrong about the world anyway.
        #expect(chase(axis: .pan, inverted: false, subjectSpeed: 0.35 * 1.7) != nil)
        #expect(chase(axis: .pan, inverted: false, subjectSpeed: 0.35 * 1.5) == nil)
    }
}
