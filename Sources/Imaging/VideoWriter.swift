import CVision
import DockCore
import Foundation

/// Writes BGR frames to a video file (MJPEG AVI by default).
public final class VideoWriter {
    private var handle: OpaquePointer?
    public let size: PixelSize
    public let path: String
    public private(set) var framesWritten = 0

    public init(path: String, size: PixelSize, fps: Double, fourcc: String = "MJPG") throws(ImagingError) {
        guard let handle = cvision_writer_open(path, fourcc, fps, Int32(size.width), Int32(size.height)) else {
            throw ImagingError.last("open video writer \(path)")
        }
        self.handle = handle
        self.size = size
        self.path = path
    }

    public func write(_ frame: Frame) throws(ImagingError) {
        guard let handle else { throw ImagingError(operation: "write", message: "the video writer is closed") }
        let bgr = try frame.converted(to: .bgr)
        try check(bgr.withView { cvision_writer_write(handle, $0) }, "write video frame")
        framesWritten += 1
        if framesWritten % Self.growthCheckInterval == 0 { try checkGrowth() }
    }

    /// OpenCV's writer does not report failed writes (a full disk loses frames silently), so
    /// every so many frames the file must have grown.
    static let growthCheckInterval = 30
    private var lastSize: UInt64 = 0

    private func checkGrowth() throws(ImagingError) {
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path  // what the name leads to
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64) ?? 0
        defer { lastSize = size }
        guard size > lastSize else {
            throw ImagingError(
                operation: "write video",
                message:
                    "nothing more reached \(path) in the last \(Self.growthCheckInterval) frames: the disk is full or the file cannot be written"
            )
        }
    }

    /// Finishes the file; later writes fail.
    public func close() {
        if let handle { cvision_writer_free(handle) }
        handle = nil
    }

    deinit { close() }
}
