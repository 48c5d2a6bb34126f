import Control
import DockCore
import Tracking

/// What a new frame shows of the framed subject, worked out once for everyone in the control
/// step who watches it (the runaway guard, the zoom): the subject, and where it was detected in
/// that very frame as angles off the picture's centre. A box the tracker predicts while it coasts
/// keeps its own motion across the picture as the head turns, so only a detection gives angles.
struct FramedSighting {
    /// nil: nobody is framed (or only a voice is followed).
    let subject: TrackedSubject?
    /// nil: the subject was not detected in this frame.
    let offset: (yaw: Double, pitch: Double)?

    init(_ target: ControlTarget) {
        subject = target.sound == nil ? target.framed.first : nil
        guard let subject, subject.lastStamp == target.stamp else {
            offset = nil
            return
        }
        let box = ImageCoordinates(size: target.camera.referenceDimensions).pixels(subject.observedRect)
        offset = AngularError.toCenter(
            PixelPoint(x: box.midX, y: box.midY), intrinsics: target.camera.intrinsics, pitch: target.pose.x)
    }
}
