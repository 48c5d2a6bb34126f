import Control
import Foundation
import TestSupport
import Testing

/// The zoom follower on scripted frames at 30 fps: a face of a known size at the widest zoom,
/// seen through the lens factor the follower last chose (the lens is taken as instant).
@Suite(.tags(.unit)) struct ZoomFollowerTests {
    /// Runs `seconds` of frames; `face(t)` is the face's share at the widest zoom (nil = lost),
    /// `speed(t)` its speed. The factors chosen, with their times.
    func run(
        _ follower: inout ZoomFollower, from start: Double = 0, seconds: Double, noise: Double = 0,
        offCentre: Double = 0, speed: (Double) -> Double = { _ in 0 }, face: (Double) -> Double?
    ) -> [(time: Double, factor: Double)] {
        var chosen: [(Double, Double)] = []
        var frame = 0
        while Double(frame) / 30 < seconds {
            let t = start + Double(frame) / 30
            // Detector noise that alternates, so only a filter that takes several frames rejects it.
            let jitter = frame.isMultiple(of: 2) ? 1 + noise : 1 - noise
            let share = face(t).map { $0 * follower.target * jitter }
            let sample = ZoomFollower.Sample(
                time: t, faceShare: share, offCentre: offCentre, speed: speed(t), zoom: follower.target)
            if let factor = follower.observe(sample) { chosen.append((t, factor)) }
            frame += 1
        }
        return chosen
    }

    @Test func aFarCalmFaceIsZoomedToItsShareOnceItHasSettled() throws {
        var follower = ZoomFollower(range: 1...4)
        let chosen = run(&follower, seconds: 3) { _ in 0.05 }
        #expect(chosen.count == 1)
        let first = try #require(chosen.first)
        #expect(abs(first.factor - 3) < 1e-9, "0.15 / 0.05")
        // Not before the subject has been calm for the settle time.
        #expect(first.time >= 1.0 - 1e-9)
    }

    @Test func theZoomStopsAtTheLensRange() {
        var follower = ZoomFollower(range: 1...2)
        _ = run(&follower, seconds: 2) { _ in 0.02 }
        #expect(follower.target == 2)
    }

    @Test func detectorNoiseAndSmallChangesNeverBreatheTheZoom() {
        var follower = ZoomFollower(range: 1...4)
        _ = run(&follower, seconds: 2) { _ in 0.05 }
        #expect(follower.moves == 1)
        // ±15 % detector noise and a slow 15 % drift in size: inside the band, no new zoom.
        let later = run(&follower, from: 2, seconds: 20, noise: 0.15) { t in 0.05 * (1 + 0.15 * (t - 2) / 20) }
        #expect(later.isEmpty, "\(later)")
        #expect(follower.moves == 1)
    }

    @Test func aFaceGrowingTooLargeIsZoomedOutAtOnce() throws {
        var follower = ZoomFollower(range: 1...4)
        _ = run(&follower, seconds: 2) { _ in 0.05 }
        #expect(abs(follower.target - 3) < 1e-9)
        // The person steps close: the face at the widest zoom doubles at once.
        let chosen = run(&follower, from: 2, seconds: 1) { _ in 0.1 }
        let first = try #require(chosen.first)
        // Out within a few frames, not after a settle time; at most one more step out after it.
        #expect(first.time < 2.2)
        #expect(first.factor < 3 / 1.25)
        #expect(chosen.count <= 2)
        // Ending inside the band around the wanted 1.5×.
        #expect(abs(log(follower.target / 1.5)) < log(1.25), "\(follower.target)")
    }

    @Test func aFastSubjectIsFollowedWiderAndZoomedInAgainWhenItSettles() {
        var follower = ZoomFollower(range: 1...4)
        _ = run(&follower, seconds: 2) { _ in 0.05 }
        let moving = run(&follower, from: 2, seconds: 2, speed: { _ in 0.6 }, face: { _ in 0.05 })
        #expect(moving.count == 1)
        #expect(abs(follower.target - 1.5) < 1e-9, "half the wanted zoom")
        let settled = run(&follower, from: 4, seconds: 3) { _ in 0.05 }
        #expect(settled.count == 1)
        #expect(abs(follower.target - 3) < 1e-9)
        #expect((settled.first?.time ?? 0) >= 5.0 - 1e-9, "after a second of calm")
    }

    @Test func aFaceNearThePicturesEdgeIsNotZoomedInOn() {
        var follower = ZoomFollower(range: 1...4)
        let chosen = run(&follower, seconds: 3, offCentre: 0.8) { _ in 0.05 }
        #expect(chosen.isEmpty)
        #expect(follower.target == 1)
    }

    @Test func aLostSubjectZoomsAllTheWayOutAfterTheDelay() {
        var follower = ZoomFollower(range: 1...4)
        _ = run(&follower, seconds: 2) { _ in 0.05 }
        let lost = run(&follower, from: 2, seconds: 3) { _ in nil }
        #expect(lost.count == 1)
        #expect(follower.target == 1)
        let time = lost.first?.time ?? 0
        #expect(time >= 3.5 - 1e-9 && time < 3.6)
    }

    /// The zoom keys: each press steps half a doubling from the factor chosen last, and the
    /// follower leaves it there for the hold, then frames the face again.
    @Test func aPressOfTheZoomKeysStepsTheLensAndHoldsIt() throws {
        var follower = ZoomFollower(range: 1...4)
        // A far calm face: settled at 2× (a 0.075 share at the widest, wanting 0.15).
        _ = run(&follower, seconds: 3) { _ in 0.075 }
        #expect(abs(follower.target - 2) < 0.05)
        let before = follower.target
        let inward = follower.press(1, at: 3)
        #expect(abs((inward ?? 0) - before * 2.0.squareRoot()) < 1e-9)
        #expect(follower.press(0, at: 3) == nil)
        // Held: ten seconds of the same face change nothing.
        #expect(run(&follower, from: 3, seconds: 9.9) { _ in 0.075 }.isEmpty)
        // Then the follower takes over again and goes back to the face's own zoom.
        let after = run(&follower, from: 12.9, seconds: 3) { _ in 0.075 }
        #expect(after.count == 1 && abs(follower.target - 2) < 0.05, "\(after)")
        // Out, and the end of the range.
        for _ in 0..<5 { _ = follower.press(-1, at: 20) }
        #expect(follower.target == 1 && follower.press(-1, at: 20) == nil)
    }
}
