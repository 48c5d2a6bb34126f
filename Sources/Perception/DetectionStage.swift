import DockCore
import Foundation
import Imaging

/// Runs the detectors the schedule asks for on one frame. A detector that fails inside OpenCV
/// loses its part of this frame, counted and reported; the others' results still come back.
public final class DetectionStage {
    public let faces: any Detector
    public let bodies: (any Detector)?
    public let objects: (any Detector)?
    public var schedule: DetectionSchedule
    /// Failures per detector name.
    public private(set) var failures: [String: Int] = [:]
    private var lastFaceTime: MonotonicInstant?

    public struct Result: Sendable {
        public var detections: [Detection]
        /// Seconds each detector took on this frame ("yunet", "ssdlite", "second-look", …).
        public var durations: [String: Double]
        public var errors: [DetectorError]
        public var plan: DetectionSchedule.Plan
    }

    public init(faces: any Detector, bodies: (any Detector)? = nil, objects: (any Detector)? = nil,
                schedule: DetectionSchedule = DetectionSchedule()) {
        self.faces = faces
        self.bodies = bodies
        self.objects = objects
        self.schedule = schedule
    }

    /// Names of the detectors, faces first: "yunet+ssdlite+yolox-nano".
    public var name: String { ([faces.name] + [bodies?.name, objects?.name].compactMap { $0 }).joined(separator: "+") }

    /// `cancelled` is asked between detectors: a run being stopped skips the rest of the frame.
    public func detect(_ frame: Frame, tracking: [DetectionSchedule.Focus] = [], cancelled: () -> Bool = { false }) -> Result {
        let facesSeenLately = lastFaceTime.map { frame.stamp.time.seconds(since: $0) < 0.5 } ?? false
        let plan = schedule.plan(at: frame.stamp.time, facesSeenLately: facesSeenLately, tracking: tracking,
                                 hasBodyDetector: bodies != nil, hasObjectDetector: objects != nil)
        var result = Result(detections: [], durations: [:], errors: [], plan: plan)
        func run(_ label: String, _ body: () throws(DetectorError) -> [Detection]) -> [Detection] {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { result.durations[label, default: 0] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
            do { return try body() } catch {
                failures[error.detector, default: 0] += 1
                result.errors.append(error)
                return []
            }
        }
        var found = run(faces.name) { () throws(DetectorError) in try faces.detect(frame) }
        for region in plan.secondLooks {
            let extra = run("second-look") { () throws(DetectorError) in try secondLook(frame, region: region) }
            found += extra.filter { candidate in !found.contains { $0.rect.intersectionOverUnion(candidate.rect) > 0.3 } }
        }
        if !found.isEmpty { lastFaceTime = frame.stamp.time }
        if plan.bodies, let bodies, !cancelled() {
            found += run(bodies.name) { () throws(DetectorError) in try bodies.detect(frame) }
        }
        if plan.objects, let objects, objects !== bodies, !cancelled() {
            // A detector that finds both (YOLOX) reports its people as bodies; keep those only
            // when no body detector ran on this frame.
            let bodiesRan = plan.bodies && bodies != nil
            found += run(objects.name) { () throws(DetectorError) in try objects.detect(frame) }
                .filter { !bodiesRan || $0.kind != .humanBody }
        }
        result.detections = found
        return result
    }

    /// The face detector on the full-resolution pixels around `region`, mapped back to the frame.
    private func secondLook(_ frame: Frame, region: NormalizedRect) throws(DetectorError) -> [Detection] {
        let coordinates = ImageCoordinates(size: frame.size)
        guard let (crop, origin) = frame.cropped(to: coordinates.pixels(region)), crop.width >= 24, crop.height >= 24 else { return [] }
        return try faces.detect(crop).map { d in
            var mapped = d
            mapped.rect = PixelRect(x: d.rect.x + origin.x, y: d.rect.y + origin.y, width: d.rect.width, height: d.rect.height)
            mapped.landmarks = d.landmarks.map { PixelPoint(x: $0.x + origin.x, y: $0.y + origin.y) }
            mapped.imageSize = frame.size
            return mapped
        }
    }
}
