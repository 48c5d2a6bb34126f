import Perception
import Tracking

extension SubjectTracker {
    /// What the detection schedule needs to know of the tracks: where they are, and whether a
    /// body has its face.
    /// Tentative faces are included: they are looked for around themselves until confirmed.
    var focus: [DetectionSchedule.Focus] {
        subjects.filter { $0.isConfirmed || $0.kind == .humanFace }.map {
            DetectionSchedule.Focus(
                rect: $0.rect, kind: $0.kind, hasFace: $0.linkedID != nil, isConfirmed: $0.isConfirmed)
        }
    }
}
