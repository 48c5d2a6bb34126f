import DockCore
import Foundation
import TestSupport
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct PeopleTrackingTests {
    func stamp(_ i: Int) -> FrameStamp {
        FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / 30))
    }
    func face(_ x: Double, confidence: Double, frame: Int) -> Observation {
        Observation(
            identifier: 0, kind: .humanFace, rect: NormalizedRect(x: x, y: 0.5, width: 0.1, height: 0.1),
            confidence: confidence, stamp: stamp(frame))
    }

    @Test func weakDetectionsExtendTracksButNeverStartThem() {
        var tracker = SubjectTracker()
        for i in 0..<10 { tracker.update(with: [face(0.7, confidence: 0.3, frame: i)], stamp: stamp(i)) }
        #expect(tracker.subjects.isEmpty)
        for i in 10..<13 { tracker.update(with: [face(0.2, confidence: 0.9, frame: i)], stamp: stamp(i)) }
        let id = tracker.confirmedSubjects.first?.id
        // The face turns: its score drops; the track goes on with the weak detections.
        for i in 13..<60 { tracker.update(with: [face(0.2, confidence: 0.3, frame: i)], stamp: stamp(i)) }
        #expect(tracker.confirmedSubjects.map(\.id) == [id!])
        #expect(tracker.confirmedSubjects.first?.lastStamp == stamp(59))
    }

    @Test func tentativeTrackThatMissesIsDropped() {
        var tracker = SubjectTracker()
        tracker.update(with: [face(0.5, confidence: 0.9, frame: 0)], stamp: stamp(0))
        #expect(tracker.subjects.count == 1 && tracker.confirmedSubjects.isEmpty)
        tracker.update(with: [], stamp: stamp(1))
        #expect(tracker.subjects.isEmpty)
    }

    @Test func faceOnTopOfABodyIsOnePerson() throws {
        var tracker = SubjectTracker()
        for i in 0..<5 {
            tracker.update(
                with: [
                    Observation(
                        identifier: 0, kind: .humanFace,
                        rect: NormalizedRect(x: 0.46, y: 0.72, width: 0.08, height: 0.1), stamp: stamp(i)),
                    Observation(
                        identifier: 1, kind: .humanBody, rect: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.65),
                        stamp: stamp(i)),
                    Observation(
                        identifier: 2, kind: .humanBody,
                        rect: NormalizedRect(x: 0.05, y: 0.2, width: 0.2, height: 0.65), stamp: stamp(i)),
                ], stamp: stamp(i))
        }
        #expect(tracker.confirmedTracks.count == 3)
        #expect(Set(tracker.confirmedTracks.map(\.uuid)).count == 2)
        let people = tracker.confirmedSubjects
        #expect(people.count == 2)
        #expect(people.contains { $0.kind == .humanFace }, "a person seen with a face is represented by it")
    }

    @Test func faceFarFromAnyHeadPositionIsNotLinked() {
        #expect(
            PersonLinker.fit(
                face: NormalizedRect(x: 0.46, y: 0.3, width: 0.08, height: 0.1),
                body: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.65)) == 0, "at the waist")
        #expect(
            PersonLinker.fit(
                face: NormalizedRect(x: 0.3, y: 0.72, width: 0.4, height: 0.4),
                body: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.65)) == 0, "too big")
        #expect(
            PersonLinker.fit(
                face: NormalizedRect(x: 0.46, y: 0.72, width: 0.08, height: 0.1),
                body: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.65)) > 0.9)
    }

    /// Two people cross (one hidden behind the other for 0.5 s), then one turns away for 1.5 s:
    /// each keeps one identity all through, and the turned-away person stays tracked by the body.
    @Test func identitiesSurviveCrossingHidingAndTurningAway() throws {
        let scene = CrossingScene()
        var tracker = SubjectTracker()
        var identities: [Int: Set<UUID>] = [0: [], 1: []]
        var trackedWhileTurnedAway = 0
        var framesTurnedAway = 0
        for frame in scene.frames {
            tracker.update(with: frame.observations, stamp: frame.stamp)
            let t = frame.stamp.time.seconds - 10
            // Attribute each confirmed track seen in this frame to the person whose box it fits.
            for track in tracker.confirmedTracks where track.lastStamp == frame.stamp {
                let best = frame.truth.filter { $0.kind == track.kind }
                    .max {
                        $0.rect.intersectionOverUnion(track.observedRect)
                            < $1.rect.intersectionOverUnion(track.observedRect)
                    }
                if let best, best.rect.intersectionOverUnion(track.observedRect) > 0.5 {
                    identities[best.person]!.insert(track.uuid)
                }
            }
            if CrossingScene.turnedAway.contains(t) && t > CrossingScene.turnedAway.lowerBound + 0.3 {
                framesTurnedAway += 1
                let person = frame.truth.first { $0.person == 1 && $0.kind == .humanBody }!.rect
                if tracker.confirmedSubjects.contains(where: {
                    $0.kind == .humanBody && $0.rect.intersectionOverUnion(person) > 0.5
                }) {
                    trackedWhileTurnedAway += 1
                }
            }
        }
        #expect(identities[0]!.count == 1, "A had \(identities[0]!.count) identities")
        #expect(identities[1]!.count == 1, "B had \(identities[1]!.count) identities")
        #expect(identities[0] != identities[1])
        #expect(trackedWhileTurnedAway == framesTurnedAway)
        // No identity from the flickering weak false faces.
        #expect(Set(tracker.confirmedTracks.map(\.uuid)).count == 2)
    }
}

@Suite(.tags(.unit)) struct ObjectTrackingTests {
    func stamp(_ i: Int) -> FrameStamp {
        FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / 30))
    }
    func object(_ label: String, x: Double, frame: Int) -> Observation {
        Observation(
            identifier: 0, kind: .object, rect: NormalizedRect(x: x, y: 0.1, width: 0.15, height: 0.1),
            stamp: stamp(frame), label: label)
    }

    /// A dog that shows up exactly where a cat is (the cat missed in that frame) is not taken for
    /// the cat: a track never changes class.
    @Test func objectsOfDifferentClassesNeverShareATrack() {
        var tracker = SubjectTracker()
        var labels: [Int: Set<String>] = [:]
        for i in 0..<40 {
            var seen = [object("dog", x: 0.7, frame: i)]
            if i < 20 || i > 22 { seen.append(object("cat", x: 0.3, frame: i)) }
            if (20...22).contains(i) { seen.append(object("dog", x: 0.31, frame: i)) }
            tracker.update(with: seen, stamp: stamp(i))
            for track in tracker.subjects { labels[track.id, default: []].insert(track.label ?? "?") }
        }
        #expect(labels.values.allSatisfy { $0.count == 1 }, "\(labels)")
        let cats = tracker.confirmedTracks.filter { $0.label == "cat" }
        #expect(cats.count == 1 && cats[0].hits > 30, "the cat kept its track through the gap")
    }
}
