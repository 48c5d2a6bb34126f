import DockCore
import Perception

/// dockd's face detection as it runs frame after frame — the schedule with its whole scans and
/// its looks around tracked faces, the tracker that says where those are, the selection —
/// without speakers or motion: what the peer comparison measures against a plain script.
public final class FaceDetectionPath {
    private let step: PerceptionStep

    public init(faces: any Detector, regionFaces: (any Detector)?) {
        step = PerceptionStep(
            detection: DetectionStage(faces: faces, regionFaces: regionFaces), follower: nil, lipReader: nil,
            audio: nil, speakingThreshold: 1)
    }

    /// The faces found in `frame` (the next of a recording, in order), and where the face tracks
    /// confirmed after it are (unit rects).
    public func faces(in frame: Frame) -> (found: [Detection], tracked: [NormalizedRect]) {
        let camera = CameraInformation(size: frame.size, horizontalFieldOfViewDegrees: 60)
        let seen = step.perceive(frame, camera: camera, locked: [], now: frame.stamp.time, cancelled: { false })
        return (seen.detections, seen.faceTracks.map(\.rect))
    }

    /// Frames whose faces were looked for only around the tracked ones, and all frames.
    public var regionFrames: Int { step.detection.regionFrames }
}
