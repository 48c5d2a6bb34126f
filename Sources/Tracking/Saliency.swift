import DockCore
import Foundation

/// What the tracker can say of each tracked person or object beyond where it is: whether a
/// person looks at the camera, and how important each subject is (rank 1 = most).
public struct SubjectAssessment: Sendable, Hashable {
    public var uuid: UUID
    /// The representative track (a person's face when seen, else the body; an object's box).
    public var subject: TrackedSubject
    /// 0…1 from the head's yaw; nil when no face with landmarks is seen.
    public var lookingAtCameraConfidence: Double?
    /// 1 = most important; nil = not salient (not seen lately).
    public var saliencyRank: Int?
    /// The 0…1 score the ranks order.
    public var saliencyScore: Double
    /// 0…1 from the microphones (`SpeakerEvidence`); nil without audio.
    public var speakingConfidence: Double? = nil
}

public enum Saliency {
    /// Yaw (radians) at which the confidence of looking at the camera is one half (about 20°),
    /// and how sharply it falls around there: a face turned 30° away reads as not looking.
    static let halfConfidenceYaw = 0.35
    static let yawSoftness = 0.06
    /// Subjects not seen for this long are not salient.
    static let freshness = 0.5

    public static func lookingAtCamera(yaw: Double?) -> Double? {
        guard let yaw, yaw.isFinite else { return nil }
        return 1 / (1 + exp((abs(yaw) - halfConfidenceYaw) / yawSoftness))
    }

    /// Scores each subject from its size, how central it is, whether it looks at the camera and
    /// how long it has been tracked, and ranks them. People outrank objects of the same score.
    public static func assess(_ subjects: [TrackedSubject], at time: MonotonicInstant) -> [SubjectAssessment] {
        var assessed = subjects.map { s -> SubjectAssessment in
            let looking = s.kind == .humanFace ? lookingAtCamera(yaw: s.faceYaw) : nil
            // The square root of the area keeps near and far subjects within one order of
            // magnitude; a body counts as big at 0.6 of the frame's side, a face at 0.3.
            let size = min(1, (s.rect.area).squareRoot() / (s.kind == .humanBody ? 0.6 : 0.3))
            let offCentre = hypot(s.rect.midX - 0.5, s.rect.midY - 0.5) / hypot(0.5, 0.5)
            let centrality = 1 - min(1, offCentre)
            let stability = min(1, Double(s.hits) / 30)
            var score = 0.4 * size + 0.25 * centrality + 0.2 * (looking ?? 0.3) + 0.15 * stability
            if s.kind == .object { score *= 0.7 }
            return SubjectAssessment(
                uuid: s.uuid, subject: s, lookingAtCameraConfidence: looking, saliencyRank: nil, saliencyScore: score)
        }
        let ranked = assessed.indices
            .filter { time.seconds(since: assessed[$0].subject.lastStamp.time) <= freshness }
            .sorted { assessed[$0].saliencyScore > assessed[$1].saliencyScore }
        for (rank, index) in ranked.enumerated() { assessed[index].saliencyRank = rank + 1 }
        return assessed
    }
}
