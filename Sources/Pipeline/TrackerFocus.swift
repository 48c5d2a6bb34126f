import Perception
import Tracking

extension SubjectTracker {
    /// What the detection schedule needs to know of the tracks: where they are, and whether a
    /// body has its face.
    var focus: [DetectionSchedule.Focus] {
        confirmedTracks.map { DetectionSchedule.Focus(rect: $0.rect, kind: $0.kind, hasFace: $0.linkedID != nil) }
    }
}
