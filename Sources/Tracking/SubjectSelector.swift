import DockCore

/// Chooses the subject to frame: the locked one while it is tracked, else the current choice
/// while it is being seen, else the largest subject seen lately. Holding the current choice
/// keeps the camera from hopping between people; letting go of one that has not been seen for
/// `holdSeconds` while another is in view keeps it from staring at where someone used to be.
public struct SubjectSelector: Sendable {
    public private(set) var selectedID: Int?
    /// Subjects the client locked onto (by id); empty = automatic.
    public var lockedIDs: [Int] = []
    public var holdSeconds = 0.1

    public init() {}

    public mutating func select(from subjects: [TrackedSubject]) -> TrackedSubject? {
        if let locked = subjects.first(where: { lockedIDs.contains($0.id) }) {
            selectedID = locked.id
            return locked
        }
        let newest = subjects.map(\.lastStamp.time).max()
        func isRecent(_ s: TrackedSubject) -> Bool { newest.map { $0.seconds(since: s.lastStamp.time) <= holdSeconds } ?? false }
        if let current = subjects.first(where: { $0.id == selectedID }) {
            if isRecent(current) || !subjects.contains(where: { $0.id != current.id && isRecent($0) }) { return current }
        }
        let best = subjects.filter(isRecent).max { $0.rect.area < $1.rect.area }
        selectedID = best?.id
        return best
    }
}
