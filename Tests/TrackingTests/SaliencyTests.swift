import DockCore
import TestSupport
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct SaliencyTests {
    @Test func lookingAtTheCameraFallsWithYaw() {
        #expect(Saliency.lookingAtCamera(yaw: 0)! > 0.99)
        #expect(abs(Saliency.lookingAtCamera(yaw: 0.35)! - 0.5) < 1e-9)
        #expect(Saliency.lookingAtCamera(yaw: -30 * .pi / 180)! < 0.15)
        #expect(Saliency.lookingAtCamera(yaw: nil) == nil)
    }

    @Test func staleSubjectsAreNotSalient() {
        let seen = FrameStamp(sequence: 0, time: MonotonicInstant(seconds: 1))
        let face = TrackedSubject(
            id: 1,
            observation: Observation(
                identifier: 0, kind: .humanFace,
                rect: NormalizedRect(x: 0.4, y: 0.4, width: 0.1, height: 0.1), stamp: seen), stamp: seen)
        #expect(Saliency.assess([face], at: MonotonicInstant(seconds: 1.2)).first?.saliencyRank == 1)
        #expect(Saliency.assess([face], at: MonotonicInstant(seconds: 2)).first?.saliencyRank == nil)
    }
}
