import CVision
import DockCore

/// A short video decoded into memory, frame by frame (BGR): a scene's talking face.
public enum VideoClip {
    /// The first `limit` frames of the file; the clip's own frame rate comes with them.
    public static func read(path: String, limit: Int = 1000) throws(ImagingError) -> (
        frames: [Frame], frameRate: Double
    ) {
        var info = cvision_capture_info()
        guard let capture = cvision_capture_open(path, 0, &info) else { throw ImagingError.last("open \(path)") }
        defer { cvision_capture_free(capture) }
        var frames: [Frame] = []
        var view = cvision_view()
        while frames.count < limit {
            let status = cvision_capture_read(capture, &view)
            if status == CVISION_END_OF_STREAM { break }
            try check(status, "read \(path)")
            let rate = info.fps > 0 ? info.fps : 30
            frames.append(
                Frame(
                    copying: view,
                    stamp: FrameStamp(
                        sequence: UInt64(frames.count),
                        time: MonotonicInstant(seconds: Double(frames.count) / rate))))
        }
        guard !frames.isEmpty else { throw ImagingError(operation: "read \(path)", message: "\(path) has no frames") }
        return (frames, info.fps > 0 ? info.fps : 30)
    }
}
