import Foundation
import DockCore

public struct SubjectTrackerConfiguration: Sendable {
    /// Matches needed before a new subject is reported.
    public var confirmationHits = 2
    /// How long a subject that is not seen is kept (coasting) before it is dropped.
    public var coastSeconds = 0.8
    /// Smallest similarity (IoU, or a proximity score) that counts as the same subject.
    public var minimumSimilarity = 0.15
    /// Alpha-beta filter gains for position and velocity.
    public var positionGain = 0.7
    public var velocityGain = 0.3

    public init() {}
}

/// Keeps identities across frames: greedy association by overlap and proximity against each
/// subject's predicted position, an alpha-beta motion filter, birth after a few hits and death
/// after a coast window. Pure: time comes in with every update.
public struct SubjectTracker: Sendable {
    public let configuration: SubjectTrackerConfiguration
    public private(set) var subjects: [TrackedSubject] = []
    private var nextID = 1

    public init(configuration: SubjectTrackerConfiguration = SubjectTrackerConfiguration()) {
        self.configuration = configuration
    }

    /// Subjects seen often enough to report.
    public var confirmedSubjects: [TrackedSubject] { subjects.filter { $0.hits >= configuration.confirmationHits } }

    /// Folds in one frame's observations (all carrying that frame's stamp).
    public mutating func update(with observations: [Observation], stamp: FrameStamp) {
        var unmatched = Set(observations.indices)
        var pairs: [(subject: Int, observation: Int, similarity: Double)] = []
        for (s, subject) in subjects.enumerated() {
            let predicted = subject.predictedRect(at: stamp.time)
            for (o, observation) in observations.enumerated() where observation.kind == subject.kind {
                let similarity = Self.similarity(predicted, observation.rect)
                if similarity >= configuration.minimumSimilarity { pairs.append((s, o, similarity)) }
            }
        }
        pairs.sort { $0.similarity > $1.similarity }
        var matchedSubjects = Set<Int>()
        for pair in pairs where !matchedSubjects.contains(pair.subject) && unmatched.contains(pair.observation) {
            matchedSubjects.insert(pair.subject)
            unmatched.remove(pair.observation)
            correct(&subjects[pair.subject], with: observations[pair.observation], stamp: stamp)
        }
        for s in subjects.indices where !matchedSubjects.contains(s) {
            subjects[s].consecutiveMisses += 1
        }
        subjects.removeAll { stamp.time.seconds(since: $0.lastStamp.time) > configuration.coastSeconds }
        for o in unmatched.sorted() {
            let observation = observations[o]
            subjects.append(TrackedSubject(id: nextID, uuid: UUID(), kind: observation.kind, rect: observation.rect,
                                           observedRect: observation.rect,
                                           velocityX: 0, velocityY: 0, faceYaw: observation.faceYaw,
                                           confidence: observation.confidence, lastStamp: stamp, hits: 1,
                                           consecutiveMisses: 0))
            nextID += 1
        }
    }

    private func correct(_ subject: inout TrackedSubject, with observation: Observation, stamp: FrameStamp) {
        let dt = stamp.time.seconds(since: subject.lastStamp.time)
        let predicted = subject.predictedRect(at: stamp.time)
        let a = configuration.positionGain
        let residualX = observation.rect.midX - predicted.midX
        let residualY = observation.rect.midY - predicted.midY
        let width = predicted.width + a * (observation.rect.width - predicted.width)
        let height = predicted.height + a * (observation.rect.height - predicted.height)
        let midX = predicted.midX + a * residualX
        let midY = predicted.midY + a * residualY
        if dt > 1e-6 {
            subject.velocityX += configuration.velocityGain * residualX / dt
            subject.velocityY += configuration.velocityGain * residualY / dt
        }
        subject.rect = NormalizedRect(x: midX - width / 2, y: midY - height / 2, width: width, height: height)
        subject.observedRect = observation.rect
        subject.faceYaw = observation.faceYaw
        subject.confidence = observation.confidence
        subject.lastStamp = stamp
        subject.hits += 1
        subject.consecutiveMisses = 0
    }

    /// IoU when the rects overlap; otherwise a proximity score below 0.5 that falls to 0 at a
    /// centre distance of one rect size.
    static func similarity(_ a: NormalizedRect, _ b: NormalizedRect) -> Double {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        if w > 0, h > 0 {
            let inter = w * h
            let iou = inter / (a.area + b.area - inter)
            if iou > 0.25 { return iou }
        }
        let size = max(a.width, a.height, b.width, b.height, 1e-6)
        let distance = hypot(a.midX - b.midX, a.midY - b.midY) / size
        return max(0, 0.5 * (1 - distance))
    }
}
