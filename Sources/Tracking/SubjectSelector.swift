import DockCore
import Foundation

/// Chooses the subject to frame: a locked one while it is tracked, else the current choice
/// while it is being seen, else the most salient subject seen lately (`Saliency`). Holding the current choice
/// keeps the camera from hopping between people; letting go of one that has not been seen for
/// `holdSeconds` while another is in view keeps it from staring at where someone used to be.
/// Choices are by identity (`uuid`), so a person stays chosen when the face turns away and the
/// body carries the identity.
public struct SubjectSelector: Sendable {
    public private(set) var selectedUUID: UUID?
    /// Identities the client locked onto; empty = automatic.
    public var locked: [UUID] = []
    public var holdSeconds = 0.1

    public init() {}

    public mutating func select(from subjects: [TrackedSubject]) -> TrackedSubject? {
        if let choice = locked.lazy.compactMap({ uuid in subjects.first { $0.uuid == uuid } }).first {
            selectedUUID = choice.uuid
            return choice
        }
        let newest = subjects.map(\.lastStamp.time).max()
        func isRecent(_ s: TrackedSubject) -> Bool {
            newest.map { $0.seconds(since: s.lastStamp.time) <= holdSeconds } ?? false
        }
        if let current = subjects.first(where: { $0.uuid == selectedUUID }) {
            if isRecent(current) || !subjects.contains(where: { $0.uuid != current.uuid && isRecent($0) }) {
                return current
            }
        }
        let recent = subjects.filter(isRecent)
        let best = newest.flatMap { now in
            Saliency.assess(recent, at: now).min { ($0.saliencyRank ?? .max) < ($1.saliencyRank ?? .max) }?.subject
        }
        selectedUUID = best?.uuid
        return best
    }
}
