import DockCore
import Foundation
import Imaging
import Perception
import Tracking

/// How to read lips: MediaPipe FaceMesh (default), the mouth-motion fallback, or not at all.
public enum LipChoice: String, Sendable, CaseIterable {
    case facemesh, motion, off
}

/// Lip activity of the people in view: each face detected in a frame is matched to its tracked
/// person by overlap, its mouth measured, and the measures turned into activity over time.
final class LipReader {
    let meter: any MouthMeter
    private var activity: LipActivity
    /// Why the requested meter was replaced, when it was.
    let fallbackReason: String?
    /// Each person's mouth is measured at most this often (s): ten times a second still sees a
    /// mouth that opens and closes four or five times a second swing, at a third of the cost.
    var interval = 0.1
    private var measuredAt: [UUID: MonotonicInstant] = [:]

    /// The FaceMesh meter when its model is usable, else the mouth-motion one, saying why.
    init(choice: LipChoice, registry: ModelRegistry) {
        var reason: String?
        var meter: any MouthMeter = MouthMotionMeter()
        if choice == .facemesh {
            do {
                meter = try FaceMeshMouthMeter(modelPath: try registry.resolve("facemesh"))
            } catch {
                reason = "lips: \(error); reading mouth motion instead"
            }
        }
        self.meter = meter
        fallbackReason = reason
        // A talking mouth's opening swings by about 0.1 of its width; its pixels change by about
        // 1 % of the grey range more than the eyes' (carphone: 0.55 % on average, pauses
        // included, against 0.05 % for a still face).
        activity =
            meter.statistic == .variation
            ? LipActivity(statistic: .variation, reference: 0.1)
            : LipActivity(statistic: .level, reference: 0.01)
        activity.minimumSamples = 4
    }

    /// Measures the faces of `frame` that belong to tracked people seen in it (call while speech
    /// is about: lips only ever decide whom speech belongs to).
    func read(_ frame: Frame, detections: [Detection], subjects: [TrackedSubject]) {
        let coordinates = ImageCoordinates(size: frame.size)
        let faces = detections.filter { $0.kind == .humanFace }
        let now = frame.stamp.time
        for subject in subjects where subject.kind == .humanFace && subject.lastStamp == frame.stamp {
            if let last = measuredAt[subject.uuid], now.seconds(since: last) < interval - 0.005 { continue }
            let rect = coordinates.pixels(subject.observedRect)
            guard
                let face = faces.max(by: { $0.rect.intersectionOverUnion(rect) < $1.rect.intersectionOverUnion(rect) }),
                face.rect.intersectionOverUnion(rect) > 0.5,
                let (picture, seen) = Self.closeUp(of: face, in: frame),
                let value = meter.measure(picture, face: seen, person: subject.uuid)
            else { continue }
            measuredAt[subject.uuid] = now
            activity.record(value, for: subject.uuid, at: now)
        }
        let present = Set(subjects.map(\.uuid))
        measuredAt = measuredAt.filter { present.contains($0.key) }
        activity.forget(except: present)
        meter.forget(except: present)
    }

    func activity(at time: MonotonicInstant) -> [UUID: Double] { activity.activity(at: time) }

    /// The face with a margin of its own size around it, at the finest resolution the frame has
    /// (a frame decoded small for detection keeps its camera picture), and the face in it.
    static func closeUp(of face: Detection, in frame: Frame) -> (Frame, Detection)? {
        let r = face.rect
        let around = PixelRect(x: r.x - r.width, y: r.y - r.height, width: 3 * r.width, height: 3 * r.height)
        guard let crop = frame.detailedCrop(around, minimumWidth: Self.closeUpWidth) else { return nil }
        var seen = face
        seen.rect = crop.fromFrame(r)
        seen.landmarks = face.landmarks.map(crop.fromFrame)
        seen.imageSize = crop.frame.size
        return (crop.frame, seen)
    }

    /// FaceMesh looks at a 192-pixel square around the face: three face widths need no more.
    static let closeUpWidth = 3 * 192
}
