import DockCore
import Foundation
import Tracking

/// Publishes tracking states and remembers the client's subject choice. Every processed frame
/// gives the latest state (what selection by point and the status read), but the stream carries
/// ten a second, as Apple's tracking session emits them, whatever the camera's rate.
final class TrackingPublisher: Sendable {
    static let interval = 0.1

    private struct State {
        var latest: TrackingState?
        var locked: [UUID] = []
        /// When the next state goes to the stream.
        var nextDue: Date?

        /// Whether a state of `time` goes to the stream: on schedule, every tenth of a second
        /// (a frame up to 10 ms early counts), or at once after a gap or a clock that went back.
        mutating func isDue(_ time: Date) -> Bool {
            let interval = TrackingPublisher.interval
            guard let next = nextDue, time.timeIntervalSince(next) > -2 * interval,
                time.timeIntervalSince(next) < interval
            else {
                nextDue = time.addingTimeInterval(interval)
                return true
            }
            guard time.timeIntervalSince(next) >= -0.01 else { return false }
            nextDue = next.addingTimeInterval(interval)
            return true
        }
    }
    private let state = Protected(State())
    let states = Broadcast<TrackingState>()

    func stream() -> AsyncStream<TrackingState> { states.stream(buffer: 4) }

    func publish(_ assessments: [SubjectAssessment], time: Date) {
        let subjects = assessments.map { a -> TrackedSubjectType in
            let r = a.subject.rect
            let rect = CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
            if a.subject.kind == .object {
                return .object(
                    TrackedObject(identifier: a.uuid, rect: rect, saliencyRank: a.saliencyRank))
            }
            return .person(
                TrackedPerson(
                    identifier: a.uuid, rect: rect, saliencyRank: a.saliencyRank,
                    speakingConfidence: a.speakingConfidence, lookingAtCameraConfidence: a.lookingAtCameraConfidence))
        }
        let value = TrackingState(time: time, trackedSubjects: subjects)
        let due = state.withLock { s in
            s.latest = value
            return s.isDue(time)
        }
        if due { states.yield(value) }
    }

    var latest: TrackingState? { state.withLock { $0.latest } }
    var locked: [UUID] { state.withLock { $0.locked } }
    func lock(_ ids: [UUID]) { state.withLock { $0.locked = ids } }
}

extension LocalDock {
    /// Tracking states as the system tracker sees the processed frames, ten a second.
    package var trackingStates: AsyncStream<TrackingState> { tracking.stream() }

    /// Locks framing onto the subject under `point` (unit coordinates, lower-left origin, as the
    /// subjects' rects); the smallest subject containing it wins (a face over its body). Returns
    /// the subject locked onto.
    @discardableResult
    package func lockSubject(at point: CGPoint) throws(DockKitError) -> UUID {
        guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else {
            throw .invalidParameter
        }
        let subjects = tracking.latest?.trackedSubjects ?? []
        guard
            let hit = subjects.filter({ $0.rect.contains(point) }).min(by: {
                $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height
            })
        else { throw .noSubjectFound }
        tracking.lock([hit.identifier])
        return hit.identifier
    }

    /// Locks framing onto these subjects (framed together, as a group, while each is tracked);
    /// `[]` returns to automatic selection. Refused when none of them is being tracked.
    package func lockSubjects(_ ids: [UUID]) throws(DockKitError) {
        if ids.isEmpty {
            tracking.lock([])
            return
        }
        let tracked = Set((tracking.latest?.trackedSubjects ?? []).map(\.identifier))
        guard ids.contains(where: tracked.contains) else { throw .noSubjectFound }
        tracking.lock(ids)
    }

    /// The last tracking state published, if any.
    package var latestTrackingState: TrackingState? { tracking.latest }

    /// The client's locked subjects, for the system tracker's selector.
    package var lockedSubjects: [UUID] { tracking.locked }

    /// Publishes what the system tracker sees in a frame.
    package func publishTracking(_ assessments: [SubjectAssessment], time: Date) {
        tracking.publish(assessments, time: time)
    }
}
