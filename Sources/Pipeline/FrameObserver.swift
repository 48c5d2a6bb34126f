import DockCore

/// One frame as the engine publishes it once it is processed: what perception made of it, when
/// it was taken and what the motors were last told.
package struct ObservedFrame {
    package var perception: FramePerception
    /// Seconds since the run's first frame.
    package var time: Double
    /// The motors' latest velocity.
    package var command: Vector3D
}

/// What an observer adds to the annotated video and the status line for the frame it just saw.
package struct FrameOverlay: Sendable {
    /// Boxes to draw, in the frame's pixels (where the people really are).
    package var boxes: [PixelRect] = []
    /// The framed subject's centring error on this frame, degrees.
    package var centeringErrorDegrees: Double?
    /// The share of frames so far with the subject in view.
    package var inViewShare: Double?

    package init(boxes: [PixelRect] = [], centeringErrorDegrees: Double? = nil, inViewShare: Double? = nil) {
        self.boxes = boxes
        self.centeringErrorDegrees = centeringErrorDegrees
        self.inViewShare = inViewShare
    }
}

/// Whoever measures a run subscribes to the frames the engine processed (the benchmark's ground
/// truth, a test); the engine publishes and knows nothing of what they compare it with. Called on
/// the perception thread, in frame order.
package protocol FrameObserver: AnyObject {
    /// One processed frame; returns what to add for it to the video and the status line.
    func observe(_ frame: ObservedFrame) -> FrameOverlay
    /// Lines for the run's report, at its end.
    var reportLines: [String] { get }
}
