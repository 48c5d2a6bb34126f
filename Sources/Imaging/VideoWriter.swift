import CVision
import DockCore

/// Writes BGR frames to a video file (MJPEG AVI by default).
public final class VideoWriter {
    private var handle: OpaquePointer?
    public let size: PixelSize
    public private(set) var framesWritten = 0

    public init(path: String, size: PixelSize, fps: Double, fourcc: String = "MJPG") throws(ImagingError) {
        guard let handle = cvs_writer_open(path, fourcc, fps, Int32(size.width), Int32(size.height)) else {
            throw ImagingError.last("open video writer \(path)")
        }
        self.handle = handle
        self.size = size
    }

    public func write(_ frame: Frame) throws(ImagingError) {
        guard let handle else { throw ImagingError(operation: "write", message: "the video writer is closed") }
        let bgr = try frame.converted(to: .bgr)
        try check(bgr.withView { cvs_writer_write(handle, $0) }, "write video frame")
        framesWritten += 1
    }

    /// Finishes the file; later writes fail.
    public func close() {
        if let handle { cvs_writer_free(handle) }
        handle = nil
    }

    deinit { close() }
}
