public enum ObservationKind: String, Sendable, Hashable {
    case humanFace
    case humanBody
    case object
}

/// One sighting of a subject in one frame, in normalized lower-left-origin coordinates.
public struct Observation: Sendable, Hashable {
    public var identifier: Int
    public var kind: ObservationKind
    public var rect: NormalizedRect
    /// Radians; 0 faces the camera, positive when the face turns toward the image's right.
    public var faceYaw: Double?
    public var confidence: Double
    public var stamp: FrameStamp
    /// The detector's class name for `.object` ("cat", "dog"); nil for faces and bodies.
    public var label: String?
    /// How the subject looked in this frame (faces, when the frame was at hand).
    public var appearance: Appearance?

    public init(
        identifier: Int, kind: ObservationKind, rect: NormalizedRect, faceYaw: Double? = nil,
        confidence: Double = 1, stamp: FrameStamp, label: String? = nil, appearance: Appearance? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.rect = rect
        self.faceYaw = faceYaw
        self.confidence = confidence
        self.stamp = stamp
        self.label = label
        self.appearance = appearance
    }
}
