import CVision
import DockCore
import Foundation
import Imaging

/// Measures a mouth in one frame, for telling who is talking by their lips. Values are only
/// comparable within one meter: `variation` says whether talking shows as the value's swing
/// over time (how open the mouth is) or as its level (how much the mouth moves).
public protocol MouthMeter: AnyObject {
    var name: String { get }
    var statistic: MouthStatistic { get }
    /// The mouth of `face` (a detection in `frame`) for the person `person`, or nil when it
    /// cannot be measured (no landmarks, the model sees no face there, the first look).
    func measure(_ frame: Frame, face: Detection, person: UUID) -> Double?
    /// Drops what is kept for people no longer present.
    func forget(except present: Set<UUID>)
}

public enum MouthStatistic: Sendable {
    /// Talking moves the value up and down: its standard deviation over a short window counts.
    case variation
    /// The value is already a motion: its mean over a short window counts.
    case level
}

/// MediaPipe FaceMesh on a square crop around the face: mouth opening = the gap between the
/// inner lips (points 13 and 14) over the mouth's width (corners 78 and 308).
public final class FaceMeshMouthMeter: MouthMeter {
    public let name = "facemesh"
    public let statistic = MouthStatistic.variation
    private let handle: OpaquePointer
    private var points = [Float](repeating: 0, count: 468 * 3)

    public init(modelPath: String) throws(DetectorError) {
        guard let handle = cvision_face_mesh_create(modelPath) else {
            throw DetectorError(
                detector: "facemesh",
                message: "cannot load model \(modelPath): \(String(cString: cvision_last_error()))")
        }
        self.handle = handle
    }

    deinit { cvision_face_mesh_free(handle) }

    /// The 468 landmarks (image pixels, top-left origin) and the model's face-presence probability.
    public func landmarks(_ frame: Frame, face: PixelRect) throws(DetectorError) -> (
        points: [PixelPoint], presence: Double
    ) {
        var presence: Float = 0
        let status = frame.withView { view in
            points.withUnsafeMutableBufferPointer {
                cvision_face_mesh_landmarks(
                    handle, view, Float(face.x), Float(face.y), Float(face.width), Float(face.height), $0.baseAddress,
                    &presence)
            }
        }
        guard status == CVISION_OK else {
            throw DetectorError(detector: name, message: String(cString: cvision_last_error()))
        }
        let found = stride(from: 0, to: points.count, by: 3).map {
            PixelPoint(x: Double(points[$0]), y: Double(points[$0 + 1]))
        }
        return (found, Double(presence))
    }

    public static func opening(_ points: [PixelPoint]) -> Double? {
        guard points.count == 468 else { return nil }
        func distance(_ a: Int, _ b: Int) -> Double { hypot(points[a].x - points[b].x, points[a].y - points[b].y) }
        let width = distance(78, 308)
        return width > 1 ? distance(13, 14) / width : nil
    }

    public func measure(_ frame: Frame, face: Detection, person: UUID) -> Double? {
        guard let found = try? landmarks(frame, face: face.rect), found.presence >= 0.5 else { return nil }
        return Self.opening(found.points)
    }

    public func forget(except present: Set<UUID>) {}
}

/// The cheap fallback: how much the pixels around the mouth change from one frame to the next,
/// less how much the eyes' band changes (a nodding or turning head moves both), from the five
/// YuNet landmarks. Both patches are resampled to a fixed size, grey, so distance does not matter.
public final class MouthMotionMeter: MouthMeter {
    public let name = "mouth-motion"
    public let statistic = MouthStatistic.level
    private static let patch = PixelSize(width: 24, height: 16)
    private var previous: [UUID: (mouth: [UInt8], eyes: [UInt8], sequence: UInt64)] = [:]

    public init() {}

    public func measure(_ frame: Frame, face: Detection, person: UUID) -> Double? {
        guard face.landmarks.count == 5 else { return nil }
        let rightEye = face.landmarks[0]
        let leftEye = face.landmarks[1]
        let right = face.landmarks[3]
        let left = face.landmarks[4]
        let mouthWidth = hypot(left.x - right.x, left.y - right.y)
        let eyeWidth = hypot(leftEye.x - rightEye.x, leftEye.y - rightEye.y)
        guard mouthWidth > 4, eyeWidth > 4 else { return nil }
        let mouthCentre = PixelPoint(x: (left.x + right.x) / 2, y: (left.y + right.y) / 2)
        let eyesCentre = PixelPoint(x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2)
        // The lips and the chin below them; the same shape around the eyes.
        let mouth = PixelRect(
            x: mouthCentre.x - 0.75 * mouthWidth, y: mouthCentre.y - 0.5 * mouthWidth, width: 1.5 * mouthWidth,
            height: mouthWidth)
        let eyes = PixelRect(
            x: eyesCentre.x - 0.75 * eyeWidth, y: eyesCentre.y - 0.5 * eyeWidth, width: 1.5 * eyeWidth, height: eyeWidth
        )
        guard let mouthPatch = Self.patch(frame, mouth), let eyesPatch = Self.patch(frame, eyes) else { return nil }
        defer { previous[person] = (mouthPatch, eyesPatch, frame.stamp.sequence) }
        guard let last = previous[person], frame.stamp.sequence > last.sequence,
            frame.stamp.sequence - last.sequence <= 3
        else { return nil }
        return max(0, Self.change(mouthPatch, last.mouth) - Self.change(eyesPatch, last.eyes))
    }

    public func forget(except present: Set<UUID>) {
        previous = previous.filter { present.contains($0.key) }
    }

    /// Mean absolute difference, 0…1.
    static func change(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0
        for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(a.count) / 255
    }

    static func patch(_ frame: Frame, _ rect: PixelRect) -> [UInt8]? {
        guard rect.x >= 0, rect.y >= 0, rect.maxX <= Double(frame.width), rect.maxY <= Double(frame.height),
            let crop = frame.cropped(to: rect)?.frame,
            let small = try? crop.resized(to: patch, interpolation: .area).converted(to: .gray)
        else { return nil }
        return small.pixels
    }
}
