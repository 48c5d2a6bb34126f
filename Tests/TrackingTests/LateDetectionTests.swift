import DockCore
import Foundation
import TestSupport
import Testing

@testable import Tracking

/// Bodies are detected a few times a second, beside the frame path, and reach the tracker a
/// frame or two after the faces of the same frame.
@Suite(.tags(.unit)) struct LateDetectionTests {
    func stamp(_ i: Int) -> FrameStamp {
        FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / 30))
    }
    func face(_ i: Int, x: Double = 0.46) -> Observation {
        Observation(
            identifier: 0, kind: .humanFace, rect: NormalizedRect(x: x, y: 0.72, width: 0.08, height: 0.1),
            stamp: stamp(i))
    }
    func faceX(_ i: Int) -> Double { 0.05 + 0.04 * Double(i) }
    func body(_ i: Int, x: Double = 0.4) -> Observation {
        Observation(
            identifier: 1, kind: .humanBody, rect: NormalizedRect(x: x, y: 0.2, width: 0.2, height: 0.65),
            stamp: stamp(i))
    }

    /// Faces every frame, bodies one frame in six: the frames without bodies leave the body
    /// track alone, so it is confirmed on its second sighting rather than dropped in between.
    @Test func framesThatDidNotLookForBodiesLeaveBodyTracksAlone() throws {
        var tracker = SubjectTracker()
        for i in 0..<13 {
            if i % 6 == 0 { tracker.update(with: [body(i)], stamp: stamp(i), searched: [.humanBody]) }
            tracker.update(with: [], stamp: stamp(i), searched: [.humanFace])
        }
        let tracked = try #require(tracker.confirmedTracks.first)
        #expect(tracked.kind == .humanBody && tracked.hits == 3)
        // Searching for everything and finding nothing is a miss, as before.
        tracker.update(with: [], stamp: stamp(40))
        #expect(tracker.subjects.isEmpty)
    }

    /// The body of frame 6 arrives with frame 8, after the faces of frames 6–8: it is linked with
    /// the face as it was in frame 6 (the face has moved on since, too far to sit on it).
    @Test func aLateBodyIsLinkedWithTheFaceAsItWasInItsOwnFrame() throws {
        var tracker = SubjectTracker()
        var pending: [Int] = []
        for i in 0..<20 {
            // The person walks right quickly.
            tracker.update(with: [face(i, x: faceX(i))], stamp: stamp(i), searched: [.humanFace])
            if i % 6 == 0 { pending.append(i) }
            if let due = pending.first, i == due + 2 {
                pending.removeFirst()
                let late = body(due, x: faceX(due) - 0.06)
                #expect(PersonLinker.fit(face: face(i, x: faceX(i)).rect, body: late.rect) == 0)
                tracker.update(with: [late], stamp: stamp(due), searched: [.humanBody])
            }
        }
        let tracks = tracker.confirmedTracks
        let faceTrack = try #require(tracks.first { $0.kind == .humanFace })
        let bodyTrack = try #require(tracks.first { $0.kind == .humanBody })
        #expect(faceTrack.linkedID == bodyTrack.id && bodyTrack.linkedID == faceTrack.id)
        #expect(faceTrack.uuid == bodyTrack.uuid)
        #expect(bodyTrack.lastStamp == stamp(12), "the body keeps its own frame's time")
        #expect(tracker.confirmedSubjects.count == 1)
    }
}
