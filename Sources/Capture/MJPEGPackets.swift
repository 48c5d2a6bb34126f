import CVision
import DockCore

/// The undecoded JPEG frames of an MJPEG recording, for decode benchmarks and tests.
public enum MJPEGPackets {
    public static func read(path: String, limit: Int = .max) throws(FrameSourceError) -> [[UInt8]] {
        if let reader = try? MJPEGAVIReader(path: path) {
            var packets: [[UInt8]] = []
            while packets.count < limit, let packet = reader.nextPacket() { packets.append(packet) }
            return packets
        }
        return try readThroughOpenCV(path: path, limit: limit)
    }

    /// The same through FFmpeg's demuxer: MJPEG in containers other than AVI.
    public static func readThroughOpenCV(path: String, limit: Int = .max) throws(FrameSourceError) -> [[UInt8]] {
        var info = cvision_capture_info()
        guard let handle = cvision_capture_open(path, 1, &info) else {
            throw FrameSourceError("cannot open video \(path): \(String(cString: cvision_last_error()))")
        }
        defer { cvision_capture_free(handle) }
        guard info.fourcc == VideoFileSource.fourcc("MJPG") else {
            throw FrameSourceError("\(path) is not an MJPEG recording")
        }
        var packets: [[UInt8]] = []
        var view = cvision_view()
        while packets.count < limit, cvision_capture_read(handle, &view) == 0 {
            packets.append(Array(UnsafeRawBufferPointer(start: view.data, count: Int(view.width))))
        }
        return packets
    }
}
