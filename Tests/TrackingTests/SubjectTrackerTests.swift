import DockCore
import TestSupport
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct SubjectTrackerTests {
    func stamp(_ i: Int, fps: Double = 30) -> FrameStamp {
        FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / fps))
    }
    func face(_ x: Double, _ y: Double = 0.4, size: Double = 0.1, frame: Int) -> Observation {
        Observation(
            identifier: 0, kind: .humanFace, rect: NormalizedRect(x: x, y: y, width: size, height: size),
            stamp: stamp(frame))
    }

    @Test func movingSubjectKeepsItsIdentityAndVelocity() throws {
        var tracker = SubjectTracker()
        for i in 0..<60 { tracker.update(with: [face(0.1 + 0.006 * Double(i), frame: i)], stamp: stamp(i)) }
        #expect(tracker.subjects.count == 1)
        let subject = try #require(tracker.confirmedSubjects.first)
        #expect(subject.id == 1 && subject.hits == 60)
        // 0.006 per frame at 30 fps = 0.18 unit widths per second.
        #expect(abs(subject.velocityX - 0.18) < 0.02)
        let ahead = subject.predictedRect(at: stamp(63).time)
        #expect(abs(ahead.midX - (0.1 + 0.006 * 62 + 0.05)) < 0.01)
    }

    @Test func newSubjectIsConfirmedAfterTwoHits() {
        var tracker = SubjectTracker()
        tracker.update(with: [face(0.5, frame: 0)], stamp: stamp(0))
        #expect(tracker.confirmedSubjects.isEmpty)
        tracker.update(with: [face(0.5, frame: 1)], stamp: stamp(1))
        #expect(tracker.confirmedSubjects.count == 1)
    }

    @Test func briefMissCoastsAndLongMissEndsTheTrack() throws {
        var tracker = SubjectTracker()
        for i in 0..<5 { tracker.update(with: [face(0.5, frame: i)], stamp: stamp(i)) }
        let uuid = try #require(tracker.subjects.first?.uuid)
        for i in 5..<15 { tracker.update(with: [], stamp: stamp(i)) }  // a third of a second hidden
        tracker.update(with: [face(0.5, frame: 15)], stamp: stamp(15))
        #expect(tracker.subjects.count == 1 && tracker.subjects.first?.uuid == uuid)
        for i in 16..<60 { tracker.update(with: [], stamp: stamp(i)) }  // gone for 1.5 s
        #expect(tracker.subjects.isEmpty)
        tracker.update(with: [face(0.5, frame: 60)], stamp: stamp(60))
        #expect(tracker.subjects.first?.uuid != uuid && tracker.subjects.first?.id == 2)
    }

    @Test func twoSubjectsSideBySideStaySeparate() {
        var tracker = SubjectTracker()
        for i in 0..<20 { tracker.update(with: [face(0.2, frame: i), face(0.7, frame: i)], stamp: stamp(i)) }
        let ids = tracker.confirmedSubjects.sorted { $0.rect.x < $1.rect.x }.map(\.id)
        #expect(ids == [1, 2])
    }

    @Test func selectorSticksToItsChoiceUntilItIsGone() throws {
        var tracker = SubjectTracker()
        var selector = SubjectSelector()
        for i in 0..<3 { tracker.update(with: [face(0.2, size: 0.1, frame: i)], stamp: stamp(i)) }
        let first = selector.select(from: tracker.confirmedSubjects)
        #expect(first?.id == 1)
        // A bigger face appears: the choice stays on the current subject.
        for i in 3..<6 {
            tracker.update(with: [face(0.2, size: 0.1, frame: i), face(0.6, size: 0.2, frame: i)], stamp: stamp(i))
        }
        let still = selector.select(from: tracker.confirmedSubjects)
        #expect(still?.id == 1)
        // Locking selects the other one.
        selector.locked = [try #require(tracker.confirmedSubjects.first { $0.id == 2 }?.uuid)]
        let locked = selector.select(from: tracker.confirmedSubjects)
        #expect(locked?.id == 2)
    }
}
