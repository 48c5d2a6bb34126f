import Foundation

/// A person the system tracks (DockKit's `DockAccessory.TrackedPerson`). `rect` is a unit rect
/// with a lower-left origin.
public struct TrackedPerson: Sendable, Hashable {
    /// Random, stable while the person is tracked, never reused within a session.
    public var identifier: UUID
    public var rect: CGRect
    /// 1 = most important; nil = not salient.
    public var saliencyRank: Int?
    /// 0…1; nil until speaker detection is running.
    public var speakingConfidence: Double?
    /// 0…1 from head pose; nil when no face with landmarks is seen.
    public var lookingAtCameraConfidence: Double?

    package init(
        identifier: UUID, rect: CGRect, saliencyRank: Int?, speakingConfidence: Double?,
        lookingAtCameraConfidence: Double?
    ) {
        self.identifier = identifier
        self.rect = rect
        self.saliencyRank = saliencyRank
        self.speakingConfidence = speakingConfidence
        self.lookingAtCameraConfidence = lookingAtCameraConfidence
    }
}

/// A non-person subject, a COCO class the user enabled (DockKit's `DockAccessory.TrackedObject`).
public struct TrackedObject: Sendable, Hashable {
    public var identifier: UUID
    public var rect: CGRect
    public var saliencyRank: Int?

    package init(identifier: UUID, rect: CGRect, saliencyRank: Int?) {
        self.identifier = identifier
        self.rect = rect
        self.saliencyRank = saliencyRank
    }
}

/// A person or an object (DockKit's `DockAccessory.TrackedSubjectType`).
public enum TrackedSubjectType: Sendable, Hashable {
    case person(TrackedPerson)
    case object(TrackedObject)

    public var identifier: UUID {
        switch self {
        case .person(let p): p.identifier
        case .object(let o): o.identifier
        }
    }

    public var rect: CGRect {
        switch self {
        case .person(let p): p.rect
        case .object(let o): o.rect
        }
    }
}

/// Everything the system tracks in one frame (DockKit's `DockAccessory.TrackingState`).
public struct TrackingState: Sendable, CustomStringConvertible {
    /// When that frame was captured (a live camera), or processed (a simulation).
    public var time: Date
    public var trackedSubjects: [TrackedSubjectType]

    package init(time: Date, trackedSubjects: [TrackedSubjectType]) {
        self.time = time
        self.trackedSubjects = trackedSubjects
    }

    public var description: String {
        let subjects = trackedSubjects.map { subject -> String in
            switch subject {
            case .person(let p):
                "person \(p.identifier.uuidString.prefix(8)) speaking "
                    + (p.speakingConfidence.map { String(format: "%.2f", $0) } ?? "–")
            case .object(let o): "object \(o.identifier.uuidString.prefix(8))"
            }
        }
        let list = subjects.isEmpty ? "" : ": " + subjects.joined(separator: ", ")
        return "TrackingState(\(trackedSubjects.count) subjects\(list))"
    }
}
