import DockCore
import Motion

/// A live camera's frames with their intrinsics narrowed by the zoom the engine drives, read
/// from the lens at each frame's time, so the detector's angles and the zoom follower see the
/// focal length the frame was taken with. The camera's own intrinsics are the widest lens's.
final class ZoomedFrames: FrameSource {
    private let inner: any FrameSource
    private let drive: any ZoomDrive

    init(_ inner: any FrameSource, drive: any ZoomDrive) {
        self.inner = inner
        self.drive = drive
    }

    var summary: String { inner.summary }
    var size: PixelSize { inner.size }
    var nominalFrameRate: Double { inner.nominalFrameRate }
    var droppedFrames: Int { inner.droppedFrames }
    var counts: SourceCounts { inner.counts }

    func nextFrame() throws(FrameSourceError) -> Frame? {
        guard var frame = try inner.nextFrame() else { return nil }
        if let camera = frame.camera {
            frame.camera?.intrinsics = camera.intrinsics.zoomed(by: drive.factor(at: frame.stamp.time))
        }
        return frame
    }
}
