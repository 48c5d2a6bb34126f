import DockCore
import Foundation

/// The people lost lately, by how they looked, so that one who comes back (out of the view and
/// in again, or from behind someone) is the same person again rather than a stranger. A new
/// track takes a remembered identity only when it looks like that one and clearly unlike every
/// other remembered person; otherwise it stays new (a wrong name is worse than a new one).
struct IdentityMemory: Sendable {
    struct Lost: Sendable {
        var uuid: UUID
        var kind: ObservationKind
        var appearance: Appearance
        var identitySince: MonotonicInstant
        var lostAt: MonotonicInstant
    }

    /// How long a lost person is remembered.
    static let keepSeconds = 30.0
    /// Sightings a track's appearance must average to be remembered (fewer are too easily one
    /// odd frame), and a newcomer's to be compared: two, its confirmation, so that recognising
    /// costs no frame unless a sighting was crowded.
    static let samplesToRemember = 3
    static let samplesToCompare = 2
    /// Appearance distance under which a newcomer may be the lost person.
    static let sameDistance = 0.25
    /// The runner-up must be at least this much further away, or the match is ambiguous.
    static let margin = 0.05
    static let capacity = 16

    private(set) var lost: [Lost] = []

    /// Remembers a confirmed track that is being dropped.
    mutating func remember(_ track: TrackedSubject, at time: MonotonicInstant) {
        guard track.isConfirmed, track.appearanceSamples >= Self.samplesToRemember, let appearance = track.appearance
        else { return }
        lost.removeAll { $0.uuid == track.uuid }
        lost.append(
            Lost(
                uuid: track.uuid, kind: track.kind, appearance: appearance, identitySince: track.identitySince,
                lostAt: time))
        if lost.count > Self.capacity { lost.removeFirst(lost.count - Self.capacity) }
    }

    /// Whether anyone of `kind` lost lately might come back.
    func remembers(_ kind: ObservationKind, at time: MonotonicInstant) -> Bool {
        lost.contains { $0.kind == kind && time.seconds(since: $0.lostAt) <= Self.keepSeconds }
    }

    /// The lost person `track` is, if it clearly looks like one; `live` are the identities still
    /// tracked (a person cannot come back while still here). The match is forgotten.
    mutating func recall(_ track: TrackedSubject, live: Set<UUID>, at time: MonotonicInstant) -> Lost? {
        lost.removeAll { time.seconds(since: $0.lostAt) > Self.keepSeconds || live.contains($0.uuid) }
        guard let appearance = track.appearance else { return nil }
        let ranked = lost.indices
            .filter { lost[$0].kind == track.kind }
            .compactMap { i in lost[i].appearance.distance(to: appearance).map { (i, $0) } }
            .sorted { $0.1 < $1.1 }
        guard let best = ranked.first, best.1 < Self.sameDistance else { return nil }
        if ranked.count > 1, ranked[1].1 - best.1 < Self.margin { return nil }
        return lost.remove(at: best.0)
    }
}
