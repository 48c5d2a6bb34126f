import DockCore

/// Turns detections (pixels, top-left origin) into observations (unit rects, lower-left origin).
public struct ObservationMapper: Sendable {
    public init() {}

    /// With `frame` (the picture the faces were found in), faces carry their `Appearance`.
    public func observations(from detections: [Detection], in frame: Frame? = nil) -> [Observation] {
        detections.enumerated().map { index, detection in
            let coordinates = ImageCoordinates(size: detection.imageSize)
            let rect = coordinates.normalized(detection.rect)
            return Observation(
                identifier: index, kind: detection.kind, rect: rect,
                faceYaw: detection.kind == .humanFace ? FaceYaw.estimate(landmarks: detection.landmarks) : nil,
                confidence: detection.score, stamp: detection.stamp,
                label: detection.kind == .object ? detection.label : nil,
                appearance: detection.kind == .humanFace
                    ? frame.map { AppearanceSampler.appearance(ofFace: rect, in: $0) } : nil)
        }
    }
}
