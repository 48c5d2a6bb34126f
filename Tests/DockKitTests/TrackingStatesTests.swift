import DockCore
import DockKitInProcess
import Foundation
import Motion
import TestSupport
import Testing
import Tracking

@testable import DockEngine
@testable import DockKit

@Suite(.tags(.unit)) struct TrackingStatesTests {
    func stamp(_ i: Int) -> FrameStamp {
        FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / 30))
    }

    /// Two people (one seen by face and body, one by body only) and a cat, tracked for 10 frames.
    func tracked() -> (SubjectTracker, FrameStamp) {
        var tracker = SubjectTracker()
        for i in 0..<10 {
            tracker.update(
                with: [
                    Observation(
                        identifier: 0, kind: .humanFace,
                        rect: NormalizedRect(x: 0.46, y: 0.72, width: 0.08, height: 0.1), faceYaw: 0.05, stamp: stamp(i)
                    ),
                    Observation(
                        identifier: 1, kind: .humanBody, rect: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.65),
                        stamp: stamp(i)),
                    Observation(
                        identifier: 2, kind: .humanBody,
                        rect: NormalizedRect(x: 0.75, y: 0.3, width: 0.1, height: 0.35), stamp: stamp(i)),
                    Observation(
                        identifier: 3, kind: .object, rect: NormalizedRect(x: 0.1, y: 0.05, width: 0.12, height: 0.1),
                        stamp: stamp(i), label: "cat"),
                ], stamp: stamp(i))
        }
        return (tracker, stamp(9))
    }

    func accessory() -> DockAccessory {
        DockAccessory(
            local: LocalDock(
                name: "test", backend: SimulatedGimbal(model: GimbalModel(latency: 0)), clock: ManualClock()))
    }

    @Test func statesListPeopleAndObjectsWithRanksAndAttention() async throws {
        let dock = accessory()
        let (tracker, last) = tracked()
        var iterator = try dock.trackingStates.makeAsyncIterator()
        dock.engineDock.publishTracking(Saliency.assess(tracker.confirmedSubjects, at: last.time), time: Date())
        let state = try #require(await iterator.next())
        var people: [DockAccessory.TrackedPerson] = []
        var objects: [DockAccessory.TrackedObject] = []
        for subject in state.trackedSubjects {
            switch subject {
            case .person(let p): people.append(p)
            case .object(let o): objects.append(o)
            }
        }
        #expect(people.count == 2 && objects.count == 1)
        let facing = try #require(people.first { $0.lookingAtCameraConfidence != nil })
        #expect(facing.lookingAtCameraConfidence! > 0.9)
        #expect(facing.saliencyRank == 1, "the central person facing the camera is the most important")
        #expect(Set(state.trackedSubjects.compactMap { subjectRank($0) }) == [1, 2, 3])
    }

    func subjectRank(_ s: DockAccessory.TrackedSubjectType) -> Int? {
        switch s {
        case .person(let p): p.saliencyRank
        case .object(let o): o.saliencyRank
        }
    }

    /// Ten states a second reach the stream, as Apple's session emits them, from a camera at 30
    /// or 25 frames a second; the latest state follows every frame.
    @Test func theStreamCarriesTenStatesASecondAndTheLatestEveryFrame() {
        for fps in [30.0, 25.0, 7.0] {
            let publisher = TrackingPublisher()
            let times = Protected<[Date]>([])
            let id = publisher.states.subscribe { state in times.withLock { $0.append(state.time) } }
            let start = Date(timeIntervalSince1970: 1_000_000)
            let frames = Int(fps * 3)
            for i in 0..<frames {
                publisher.publish([], time: start.addingTimeInterval(Double(i) / fps))
                #expect(publisher.latest?.time == start.addingTimeInterval(Double(i) / fps))
            }
            publisher.states.unsubscribe(id)
            // Three seconds: thirty states, or every frame when frames come slower than ten a second.
            let count = times.withLock { $0.count }
            #expect(count == min(frames, 30), "\(fps) fps: \(count) states")
            // After a pause, the next frame goes out at once.
            let after = start.addingTimeInterval(60)
            let late = publisher.states.subscribe { state in times.withLock { $0.append(state.time) } }
            publisher.publish([], time: after)
            publisher.states.unsubscribe(late)
            #expect(times.withLock { $0.last } == after)
        }
    }

    @Test func selectingByPointAndByIdentifierLocksTheChoice() async throws {
        let dock = accessory()
        let (tracker, last) = tracked()
        dock.engineDock.publishTracking(Saliency.assess(tracker.confirmedSubjects, at: last.time), time: Date())
        // A point is taken from the top left, as Apple's is: 0.9 down is the cat near the bottom.
        try await dock.selectSubject(at: CGPoint(x: 0.15, y: 0.9))
        let cat = try #require(tracker.confirmedSubjects.first { $0.kind == .object })
        #expect(dock.engineDock.lockedSubjects == [cat.uuid])
        // The point on the right-hand person's body (0.35–0.7 down).
        try await dock.selectSubject(at: CGPoint(x: 0.8, y: 0.4))
        let right = try #require(tracker.confirmedSubjects.first { $0.rect.midX > 0.7 })
        #expect(dock.engineDock.lockedSubjects == [right.uuid])
        var selector = SubjectSelector()
        selector.locked = dock.engineDock.lockedSubjects
        #expect(selector.select(from: tracker.confirmedSubjects)?.uuid == right.uuid)
        // Back to automatic: the current choice is kept while it is seen (no jump on unlock);
        // a choice made afresh is the most salient person.
        try await dock.selectSubjects([])
        selector.locked = dock.engineDock.lockedSubjects
        #expect(selector.select(from: tracker.confirmedSubjects)?.uuid == right.uuid)
        var fresh = SubjectSelector()
        fresh.locked = dock.engineDock.lockedSubjects
        #expect(fresh.select(from: tracker.confirmedSubjects)?.kind == .humanFace)
        await #expect(throws: DockKitError.noSubjectFound) { try await dock.selectSubjects([UUID()]) }
        await #expect(throws: DockKitError.noSubjectFound) {
            try await dock.selectSubject(at: CGPoint(x: 0.95, y: 0.95))
        }
        await #expect(throws: DockKitError.invalidParameter) { try await dock.selectSubject(at: CGPoint(x: 2, y: 0.5)) }
    }
}
