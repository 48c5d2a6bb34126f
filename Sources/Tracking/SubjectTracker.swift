import DockCore
import Foundation

public struct SubjectTrackerConfiguration: Sendable {
    /// Detections at least this confident are matched first and may start tracks.
    public var highConfidence = 0.6
    /// Detections between this and `highConfidence` only extend tracks that exist (a face half
    /// hidden or turning away scores low; it must not start a new identity, nor be thrown away).
    public var lowConfidence = 0.1
    /// Consecutive matches before a new track is reported.
    public var confirmationHits = 2
    /// How long a confirmed track that is not seen is kept (coasting) before it is dropped.
    public var coastSeconds = 0.8
    /// Smallest similarity (IoU, or a proximity score) that counts as the same subject, for
    /// confident detections and for weak ones (stricter: a weak detection is more often wrong).
    public var minimumSimilarity = 0.15
    public var minimumSimilarityForWeak = 0.3

    public init() {}
}

/// Keeps identities across frames, ByteTrack style: a constant-velocity Kalman filter per track;
/// confident detections are assigned to the predicted tracks first (minimum total cost), then
/// weak ones to the tracks still unmatched; new tracks start only from confident detections and
/// are confirmed after a few consecutive hits (a tentative track that misses once is dropped);
/// confirmed tracks coast through short gaps. Faces and bodies that belong together are linked
/// into one person (`PersonLinker`). Pure: time comes in with every update.
public struct SubjectTracker: Sendable {
    public let configuration: SubjectTrackerConfiguration
    /// Every live track, tentative ones included.
    public private(set) var subjects: [TrackedSubject] = []
    private var nextID = 1
    private var linker = PersonLinker()
    private var memory = IdentityMemory()

    public init(configuration: SubjectTrackerConfiguration = SubjectTrackerConfiguration()) {
        self.configuration = configuration
    }

    /// Confirmed tracks, one per person or object: a person's face while it was seen as lately
    /// as the body, otherwise the body. They carry the person's `uuid`.
    public var confirmedSubjects: [TrackedSubject] {
        let confirmed = subjects.filter(\.isConfirmed)
        var chosen: [UUID: TrackedSubject] = [:]
        var order: [UUID] = []
        for track in confirmed {
            guard let current = chosen[track.uuid] else {
                chosen[track.uuid] = track
                order.append(track.uuid)
                continue
            }
            if Self.represents(track, better: current) { chosen[track.uuid] = track }
        }
        return order.map { chosen[$0]! }
    }

    /// Every confirmed track (faces and bodies of one person both appear).
    public var confirmedTracks: [TrackedSubject] { subjects.filter(\.isConfirmed) }

    private static func represents(_ a: TrackedSubject, better b: TrackedSubject) -> Bool {
        if a.lastStamp.time != b.lastStamp.time { return a.lastStamp.time > b.lastStamp.time }
        return a.kind == .humanFace && b.kind != .humanFace
    }

    /// Folds in one frame's observations (all carrying that frame's stamp). `searched` names the
    /// kinds that were looked for in that frame (nil: every kind): only tracks of those kinds can
    /// miss, so a frame that ran no body detector leaves the body tracks as they were, and a
    /// detector's late results for an older frame update only its own kinds, at that frame's time.
    public mutating func update(
        with observations: [Observation], stamp: FrameStamp, searched: Set<ObservationKind>? = nil
    ) {
        let usable = observations.indices.filter { d in
            observations[d].confidence >= configuration.lowConfidence
                && (searched?.contains(observations[d].kind) ?? true)
        }
        let strong = usable.filter { observations[$0].confidence >= configuration.highConfidence }
        let weak = usable.filter { observations[$0].confidence < configuration.highConfidence }
        let looked = subjects.indices.filter { searched?.contains(subjects[$0].kind) ?? true }
        let predicted = subjects.map { $0.predictedRect(at: max(stamp.time, $0.lastStamp.time)) }

        // 1. Confident detections against every track looked for.
        let first = associate(
            tracks: looked, detections: strong, observations: observations,
            predicted: predicted, minimumSimilarity: configuration.minimumSimilarity)
        // 2. Weak detections against confirmed tracks still unmatched.
        let leftTracks = looked.filter { first.tracks[$0] == nil && subjects[$0].isConfirmed }
        let second = associate(
            tracks: leftTracks, detections: weak, observations: observations,
            predicted: predicted, minimumSimilarity: configuration.minimumSimilarityForWeak)
        var matchedDetection = first.tracks
        matchedDetection.merge(second.tracks) { a, _ in a }

        let crowded = Self.crowded(observations, among: usable)
        var gone = Set<Int>()
        for t in looked {
            if let d = matchedDetection[t] {
                subjects[t].correct(with: observations[d], stamp: stamp, crowded: crowded.contains(d))
                if subjects[t].hits >= configuration.confirmationHits && !mayBeSomeoneLost(subjects[t], at: stamp.time)
                {
                    subjects[t].isConfirmed = true
                }
            } else {
                subjects[t].consecutiveMisses += 1
                // A tentative track that misses is dropped at once; a confirmed one coasts for a
                // while, unless it went out of the picture (it comes back as a newcomer,
                // recognised by how it looks).
                let track = subjects[t]
                let out = !NormalizedRect.unit.contains(x: predicted[t].midX, y: predicted[t].midY)
                if !track.isConfirmed || out
                    || stamp.time.seconds(since: track.lastStamp.time) > configuration.coastSeconds
                {
                    gone.insert(t)
                    memory.remember(track, at: stamp.time)
                }
            }
        }
        subjects = subjects.indices.filter { !gone.contains($0) }.map { subjects[$0] }
        let used = Set(first.detections).union(second.detections)
        for d in strong where !used.contains(d) {
            var track = TrackedSubject(id: nextID, observation: observations[d], stamp: stamp)
            track.learnAppearance(from: observations[d], crowded: crowded.contains(d))
            track.isConfirmed = configuration.confirmationHits <= 1
            subjects.append(track)
            nextID += 1
        }
        recognise(at: stamp.time)
        linker.link(&subjects, at: stamp.time)
    }

    /// Observations overlapping another of their kind: how they look mixes two subjects.
    private static func crowded(_ observations: [Observation], among usable: [Int]) -> Set<Int> {
        Set(
            usable.filter { d in
                usable.contains { e in
                    e != d && observations[e].kind == observations[d].kind
                        && observations[e].rect.intersectionOverUnion(observations[d].rect) > 0
                }
            })
    }

    /// New tracks whose appearance is now known are compared, once, with the people lost lately;
    /// one that is a lost person takes that identity back. Only before its identity is first
    /// published: a confirmed track (or one held back as long as it may be) is left as it is.
    private mutating func recognise(at time: MonotonicInstant) {
        for t in subjects.indices where subjects[t].awaitsRecognition {
            guard subjects[t].appearanceSamples >= IdentityMemory.samplesToCompare else {
                if subjects[t].isConfirmed || time.seconds(since: subjects[t].born) >= Self.longestHoldBack {
                    subjects[t].awaitsRecognition = false
                }
                continue
            }
            subjects[t].awaitsRecognition = false
            let live = Set(subjects.indices.filter { $0 != t }.map { subjects[$0].uuid })
            if let known = memory.recall(subjects[t], live: live, at: time) {
                subjects[t].uuid = known.uuid
                subjects[t].identitySince = known.identitySince
            }
            if subjects[t].hits >= configuration.confirmationHits { subjects[t].isConfirmed = true }
        }
    }

    /// A newcomer who may be someone lost lately is confirmed once that is decided (a frame or
    /// two later), so its identity is never published twice; but not held back for long.
    private func mayBeSomeoneLost(_ track: TrackedSubject, at time: MonotonicInstant) -> Bool {
        track.awaitsRecognition && time.seconds(since: track.born) < Self.longestHoldBack
            && memory.remembers(track.kind, at: time)
    }

    /// The longest a newcomer's confirmation waits for its appearance to be compared.
    static let longestHoldBack = 0.5

    /// Minimum-cost assignment of detections to tracks of the same kind.
    private func associate(
        tracks: [Int], detections: [Int], observations: [Observation], predicted: [NormalizedRect],
        minimumSimilarity: Double
    ) -> (tracks: [Int: Int], detections: [Int]) {
        guard !tracks.isEmpty, !detections.isEmpty else { return ([:], []) }
        let costs: [[Double?]] = tracks.map { t in
            detections.map { d -> Double? in
                let observation = observations[d]
                guard observation.kind == subjects[t].kind,
                    observation.kind != .object || subjects[t].label == nil || observation.label == subjects[t].label
                else { return nil }
                let similarity = Self.similarity(predicted[t], observation.rect)
                return similarity >= minimumSimilarity ? 1 - similarity : nil
            }
        }
        var matched: [Int: Int] = [:]
        var used: [Int] = []
        for (row, column) in LinearAssignment.solve(costs) {
            matched[tracks[row]] = detections[column]
            used.append(detections[column])
        }
        return (matched, used)
    }

    /// IoU when the rects overlap well; otherwise a proximity score below 0.5 that falls to 0 at
    /// a centre distance of one rect size (small fast faces may not overlap their prediction).
    static func similarity(_ a: NormalizedRect, _ b: NormalizedRect) -> Double {
        let iou = a.intersectionOverUnion(b)
        if iou > 0.25 { return iou }
        let size = max(a.width, a.height, b.width, b.height, 1e-6)
        let distance = hypot(a.midX - b.midX, a.midY - b.midY) / size
        return max(iou, 0.5 * (1 - distance))
    }
}
