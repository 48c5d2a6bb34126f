import CVision
import DockCore
import Foundation
import Imaging

/// A recorded video: an MJPEG AVI read from its chunks (`MJPEGAVIReader`), anything else —
/// MP4/H.264, MKV, MJPEG in other containers — through OpenCV (FFmpeg, in the media library).
/// MJPEG packets are decoded by libturbojpeg at `scale` (DCT scaling, cheaper than decoding in
/// full and shrinking); other codecs are decoded by FFmpeg and shrunk. Frames are stamped with
/// their media time on the monotonic time line starting at `origin`. Corrupt frames are
/// dropped and counted. With `keepingDetail`, frames made smaller than the picture keep it
/// (`Frame.detail`: the JPEG, or FFmpeg's decoded picture).
public final class VideoFileSource: FrameSource {
    public let path: String
    public let scale: DecodeScale
    public let format: PixelFormat
    public let isMJPEG: Bool
    public let keepsDetail: Bool
    public let size: PixelSize
    public let nominalFrameRate: Double
    public let frameCount: Int?
    public private(set) var droppedFrames = 0
    public private(set) var lastDropReason: String?
    private enum Packets {
        case avi(MJPEGAVIReader)
        case openCV(OpaquePointer)
    }
    private let packets: Packets
    private let decoder = JPEGDecoder()
    private let origin: MonotonicInstant
    private var sequence: UInt64 = 0

    public init(
        path: String, scale: DecodeScale = .full, format: PixelFormat = .bgr, origin: MonotonicInstant = .zero,
        keepingDetail: Bool = false
    ) throws(FrameSourceError) {
        guard Self.isReadableFile(path) else {
            throw FrameSourceError("cannot read video \(path): no such file or no permission")
        }
        self.path = path
        self.scale = scale
        self.format = format
        self.origin = origin
        keepsDetail = keepingDetail && scale != .full
        if let reader = try? MJPEGAVIReader(path: path) {
            packets = .avi(reader)
            isMJPEG = true
            size = PixelSize(width: scale.scaled(reader.width), height: scale.scaled(reader.height))
            nominalFrameRate = reader.frameRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 30
            frameCount = reader.frameCount
            return
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
            let reason = String(cString: cvision_last_error())
            throw FrameSourceError(
                "cannot open video \(path): "
                    + (reason.contains("libOpenDockMedia") ? reason : "not a video OpenCV can decode"))
        }
        packets = .openCV(handle)
        self.isMJPEG = mjpeg
        size = PixelSize(width: scale.scaled(Int(info.width)), height: scale.scaled(Int(info.height)))
        nominalFrameRate = info.fps > 0 && info.fps.isFinite ? info.fps : 30
        frameCount = info.frame_count > 0 ? Int(info.frame_count) : nil
    }

    deinit {
        if case .openCV(let handle) = packets { cvision_capture_free(handle) }
    }

    public var summary: String {
        "\(path) (\(isMJPEG ? "MJPEG" : "decoded"), \(size) at \(scale), \(String(format: "%.1f", nominalFrameRate)) fps)"
    }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        while true {
            var view = cvision_view()
            var packet: [UInt8] = []
            switch packets {
            case .avi(let reader):
                guard let next = reader.nextPacket() else { return nil }
                packet = next
            case .openCV(let handle):
                let status = cvision_capture_read(handle, &view)
                if status == CVISION_END_OF_STREAM { return nil }
                if status < 0 {
                    throw FrameSourceError("reading \(path) failed: \(String(cString: cvision_last_error()))")
                }
            }
            let stamp = FrameStamp(
                sequence: sequence, time: origin.advanced(bySeconds: Double(sequence) / nominalFrameRate))
            sequence += 1
            do {
                if case .avi = packets {
                    return try packet.withUnsafeBytes { bytes in
                        try decoder.decode(
                            bytes, scale: scale, format: format, stamp: stamp, keepingDetail: keepsDetail)
                    }
                }
                return try decode(view, stamp: stamp)
            } catch {
                droppedFrames += 1
                lastDropReason = "frame \(stamp.sequence): \(error)"
            }
        }
    }

    private func decode(_ view: cvision_view, stamp: FrameStamp) throws -> Frame {
        if isMJPEG {
            return try decoder.decode(
                UnsafeRawBufferPointer(start: view.data, count: Int(view.width)), scale: scale,
                format: format, stamp: stamp, keepingDetail: keepsDetail)
        }
        let frame = try Frame(copying: view, stamp: stamp).converted(to: format)
        guard frame.size != size else { return frame }
        var small = try frame.resized(to: size)
        if keepsDetail { small.detail = DecodedDetail(frame) }
        return small
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
