import DockCore

/// Chooses the subject to frame: the locked one while it is tracked, else the current choice
/// while it is tracked, else the largest confirmed subject. Switching only when the current
/// subject is gone keeps the camera from hopping between people.
public struct SubjectSelector: Sendable {
    public private(set) var selectedID: Int?
    /// Subjects the client locked onto (by id); empty = automatic.
    public var lockedIDs: [Int] = []

    public init() {}

    public mutating func select(from subjects: [TrackedSubject]) -> TrackedSubject? {
        if let locked = subjects.first(where: { lockedIDs.contains($0.id) }) {
            selectedID = locked.id
            return locked
        }
        if let current = subjects.first(where: { $0.id == selectedID }) { return current }
        let best = subjects.max { $0.rect.area < $1.rect.area }
        selectedID = best?.id
        return best
    }
}
