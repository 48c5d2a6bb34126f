import CVision
import Foundation
import DockCore
import Imaging

/// A recorded video read through OpenCV (FFmpeg): MJPEG AVI, MP4/H.264, MKV, …
/// MJPEG packets are decoded by libturbojpeg at `scale` (DCT scaling, cheaper than decoding in
/// full and shrinking); other codecs are decoded by FFmpeg and shrunk. Frames are stamped with
/// their media time on the monotonic time line starting at `origin`. Corrupt frames are
/// dropped and counted.
public final class VideoFileSource: FrameSource {
    public let path: String
    public let scale: DecodeScale
    public let format: PixelFormat
    public let isMJPEG: Bool
    public let size: PixelSize
    public let nominalFrameRate: Double
    public let frameCount: Int?
    public private(set) var droppedFrames = 0
    public private(set) var lastDropReason: String?
    private let handle: OpaquePointer
    private let decoder = JPEGDecoder()
    private let origin: MonotonicInstant
    private var sequence: UInt64 = 0

    public init(path: String, scale: DecodeScale = .full, format: PixelFormat = .bgr, origin: MonotonicInstant = .zero) throws(FrameSourceError) {
        guard Self.isReadableFile(path) else {
            throw FrameSourceError("cannot read video \(path): no such file or no permission")
        }
        var info = cvision_capture_info()
        // Ask for raw packets first; keep them only when the stream is MJPEG.
        var opened = cvision_capture_open(path, 1, &info)
        let mjpeg = opened != nil && info.fourcc == Self.fourcc("MJPG")
        if opened != nil && !mjpeg {
            cvision_capture_free(opened)
            opened = nil
        }
        if opened == nil { opened = cvision_capture_open(path, 0, &info) }
        guard let handle = opened, info.width > 0, info.height > 0 else {
            if let opened { cvision_capture_free(opened) }
            throw FrameSourceError("cannot open video \(path): not a video OpenCV can decode")
        }
        self.path = path
        self.handle = handle
        self.scale = scale
        self.format = format
        self.isMJPEG = mjpeg
        self.origin = origin
        size = PixelSize(width: scale.scaled(Int(info.width)), height: scale.scaled(Int(info.height)))
        nominalFrameRate = info.fps > 0 && info.fps.isFinite ? info.fps : 30
        frameCount = info.frame_count > 0 ? Int(info.frame_count) : nil
    }

    deinit { cvision_capture_free(handle) }

    public var summary: String {
        "\(path) (\(isMJPEG ? "MJPEG" : "decoded"), \(size) at \(scale), \(String(format: "%.1f", nominalFrameRate)) fps)"
    }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        while true {
            var view = cvision_view()
            let status = cvision_capture_read(handle, &view)
            if status == CVISION_END_OF_STREAM { return nil }
            if status < 0 { throw FrameSourceError("reading \(path) failed: \(String(cString: cvision_last_error()))") }
            let stamp = FrameStamp(sequence: sequence, time: origin.advanced(bySeconds: Double(sequence) / nominalFrameRate))
            sequence += 1
            do {
                return try decode(view, stamp: stamp)
            } catch {
                droppedFrames += 1
                lastDropReason = "frame \(stamp.sequence): \(error)"
            }
        }
    }

    private func decode(_ view: cvision_view, stamp: FrameStamp) throws -> Frame {
        if isMJPEG {
            return try decoder.decode(UnsafeRawBufferPointer(start: view.data, count: Int(view.width)), scale: scale,
                                      format: format, stamp: stamp)
        }
        let frame = try Frame(copying: view, stamp: stamp).converted(to: format)
        return try frame.resized(to: size)
    }

    static func isReadableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isReadableFile(atPath: path)
    }

    static func fourcc(_ code: String) -> UInt32 {
        code.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
