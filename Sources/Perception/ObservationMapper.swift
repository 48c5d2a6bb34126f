import DockCore

/// Turns detections (pixels, top-left origin) into observations (unit rects, lower-left origin).
public struct ObservationMapper: Sendable {
    public init() {}

    public func observations(from detections: [Detection]) -> [Observation] {
        detections.enumerated().map { index, detection in
            let coordinates = ImageCoordinates(size: detection.imageSize)
            return Observation(
                identifier: index, kind: detection.kind, rect: coordinates.normalized(detection.rect),
                faceYaw: detection.kind == .humanFace ? FaceYaw.estimate(landmarks: detection.landmarks) : nil,
                confidence: detection.score, stamp: detection.stamp,
                label: detection.kind == .object ? detection.label : nil)
        }
    }
}
