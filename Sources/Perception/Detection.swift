import DockCore

/// One thing a detector found in one frame, in that frame's pixels (top-left origin).
public struct Detection: Sendable, Hashable {
    public var kind: ObservationKind
    public var label: String
    public var rect: PixelRect
    public var score: Double
    /// For faces from YuNet: right eye, left eye, nose tip, right and left mouth corner
    /// (the subject's right and left). Empty when the detector gives none.
    public var landmarks: [PixelPoint]
    public var stamp: FrameStamp
    public var imageSize: PixelSize

    public init(
        kind: ObservationKind, label: String, rect: PixelRect, score: Double, landmarks: [PixelPoint] = [],
        stamp: FrameStamp, imageSize: PixelSize
    ) {
        self.kind = kind
        self.label = label
        self.rect = rect
        self.score = score
        self.landmarks = landmarks
        self.stamp = stamp
        self.imageSize = imageSize
    }

    /// The same detection on the picture made `factor` times as large.
    public func scaled(by factor: Double) -> Detection {
        var d = self
        d.rect = rect.scaled(by: factor)
        d.landmarks = landmarks.map { PixelPoint(x: $0.x * factor, y: $0.y * factor) }
        d.imageSize = PixelSize(
            width: Int((Double(imageSize.width) * factor).rounded()),
            height: Int((Double(imageSize.height) * factor).rounded()))
        return d
    }
}

/// Why a detector could not run.
public struct DetectorError: Error, Sendable, CustomStringConvertible {
    public let detector: String
    public let message: String

    public init(detector: String, message: String) {
        self.detector = detector
        self.message = message
    }

    public var description: String { "\(detector): \(message)" }
}

/// Finds subjects in frames. A detector is owned by one thread (the detection thread) at a time.
public protocol Detector: AnyObject {
    /// Short name for logs and reports, e.g. "yunet".
    var name: String { get }
    func detect(_ frame: Frame) throws(DetectorError) -> [Detection]
}
