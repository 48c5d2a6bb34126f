import DockCore
import Foundation

/// The JPEG frames of an MJPEG AVI file (what webcams record and `--output` writes), read from
/// its RIFF chunks without FFmpeg: the common recording needs none of the libraries behind
/// OpenCV's videoio. OpenDML files (over 1 GiB: further `RIFF AVIX` parts) are followed. A
/// damaged file ends where its chunks stop making sense; nothing in it is trusted beyond the
/// file's own length.
public final class MJPEGAVIReader {
    public enum ReadError: Error, Sendable, Equatable {
        /// Not an AVI, or its video is not MJPEG: another reader may take it.
        case notMJPEGAVI(String)
        case unreadable(String)
    }

    public let width: Int
    public let height: Int
    /// Frames per second from the stream header (nil when the file does not say).
    public let frameRate: Double?
    public let frameCount: Int?

    /// `count` bytes from `offset` (fewer at the end of the file).
    private let bytes: (UInt64, Int) -> Data
    private let file: FileHandle?
    private let fileLength: UInt64
    /// "00dc" for stream 0, and its uncompressed twin "00db" (some writers use it for MJPEG).
    private let chunkIDs: Set<UInt32>
    private var position: UInt64
    /// End of the `movi` list being read; then the next RIFF part's.
    private var moviEnd: UInt64
    private var riffEnd: UInt64

    /// Larger than any JPEG a camera sends: a size beyond it means the file is damaged.
    static let largestFrame: UInt32 = 64 << 20

    public convenience init(path: String) throws(ReadError) {
        guard let file = FileHandle(forReadingAtPath: path) else { throw .unreadable("cannot open \(path)") }
        let length: UInt64
        do { length = try file.seekToEnd() } catch { throw .unreadable("cannot read \(path): \(error)") }
        try self.init(name: path, length: length, file: file) { offset, count in
            guard count > 0, (try? file.seek(toOffset: offset)) != nil else { return Data() }
            return (try? file.read(upToCount: count)) ?? Data()
        }
    }

    /// A file already in memory (the fuzz target's input).
    public convenience init(data: Data, name: String = "the data") throws(ReadError) {
        try self.init(name: name, length: UInt64(data.count), file: nil) { offset, count in
            guard count > 0, offset < UInt64(data.count) else { return Data() }
            let start = data.startIndex + Int(offset)
            return data[start..<min(start + count, data.endIndex)]
        }
    }

    private init(name path: String, length: UInt64, file: FileHandle?, bytes: @escaping (UInt64, Int) -> Data)
        throws(ReadError)
    {
        self.file = file
        self.bytes = bytes
        fileLength = length
        let header = bytes(0, 12)
        guard header.count == 12, Self.fourcc(header, 0) == Self.code("RIFF"),
            Self.fourcc(header, 8) == Self.code("AVI ")
        else { throw .notMJPEGAVI("\(path) is not an AVI file") }
        riffEnd = min(8 + UInt64(Self.uint32(header, 4)), length)
        var offset: UInt64 = 12
        var headers: StreamHeaders?
        var movi: (start: UInt64, end: UInt64)?
        while movi == nil, offset + 12 <= riffEnd {
            let chunk = bytes(offset, 12)
            guard chunk.count == 12 else { break }
            let size = UInt64(Self.uint32(chunk, 4))
            let end = min(offset + 8 + size, riffEnd)
            if Self.fourcc(chunk, 0) == Self.code("LIST") {
                switch Self.fourcc(chunk, 8) {
                case Self.code("hdrl"): headers = Self.streamHeaders(bytes, from: offset + 12, to: end)
                case Self.code("movi"): movi = (offset + 12, end)
                default: break
                }
            }
            offset = offset + 8 + size + (size & 1)
        }
        guard let headers, let video = headers.video else { throw .notMJPEGAVI("\(path) has no video stream header") }
        guard video.isMJPEG else { throw .notMJPEGAVI("\(path) holds video other than MJPEG") }
        guard let movi, video.width > 0, video.height > 0 else { throw .notMJPEGAVI("\(path) has no frames list") }
        width = video.width
        height = video.height
        frameRate = video.frameRate ?? headers.microsecondsPerFrame.map { 1e6 / $0 }
        frameCount = video.length ?? headers.totalFrames
        let digits = String(format: "%02d", video.index)
        chunkIDs = [Self.code(digits + "dc"), Self.code(digits + "db")]
        position = movi.start
        moviEnd = movi.end
    }

    deinit { try? file?.close() }

    /// The next frame's JPEG bytes, or nil at the end of the file (or where it stops being sound).
    public func nextPacket() -> [UInt8]? {
        while true {
            if position + 8 > moviEnd {
                guard enterNextPart() else { return nil }
                continue
            }
            let header = bytes(position, 12)
            guard header.count >= 8 else { return nil }
            let id = Self.fourcc(header, 0)
            let size = Self.uint32(header, 4)
            if id == Self.code("LIST"), header.count == 12, Self.fourcc(header, 8) == Self.code("rec ") {
                position += 12  // a group of chunks: read on into it
                continue
            }
            guard size <= Self.largestFrame, position + 8 + UInt64(size) <= moviEnd else { return nil }
            let payload = position + 8
            position = payload + UInt64(size) + UInt64(size & 1)
            if chunkIDs.contains(id), size > 0 {
                let data = bytes(payload, Int(size))
                guard data.count == Int(size) else { return nil }
                return [UInt8](data)
            }
        }
    }

    /// An OpenDML file goes on in `RIFF AVIX` parts, each with a `movi` list of its own.
    private func enterNextPart() -> Bool {
        var offset = riffEnd + (riffEnd & 1)
        let header = bytes(offset, 12)
        guard header.count == 12, Self.fourcc(header, 0) == Self.code("RIFF"),
            Self.fourcc(header, 8) == Self.code("AVIX")
        else { return false }
        riffEnd = min(offset + 8 + UInt64(Self.uint32(header, 4)), fileLength)
        offset += 12
        while offset + 12 <= riffEnd {
            let chunk = bytes(offset, 12)
            guard chunk.count == 12 else { return false }
            let size = UInt64(Self.uint32(chunk, 4))
            if Self.fourcc(chunk, 0) == Self.code("LIST"), Self.fourcc(chunk, 8) == Self.code("movi") {
                position = offset + 12
                moviEnd = min(offset + 8 + size, riffEnd)
                return true
            }
            offset += 8 + size + (size & 1)
        }
        return false
    }

    // MARK: - Headers

    struct VideoStream {
        var index: Int
        var isMJPEG: Bool
        var width: Int
        var height: Int
        var frameRate: Double?
        var length: Int?
    }

    struct StreamHeaders {
        var microsecondsPerFrame: Double?
        var totalFrames: Int?
        var width = 0
        var height = 0
        var video: VideoStream?
    }

    /// `avih` and each stream's `strh`/`strf` in the `hdrl` list; the first video stream counts.
    static func streamHeaders(_ bytes: (UInt64, Int) -> Data, from start: UInt64, to end: UInt64) -> StreamHeaders {
        var result = StreamHeaders()
        guard end > start, end - start < 1 << 20 else { return result }
        let list = bytes(start, Int(end - start))
        var streamIndex = 0
        var offset = 0
        while offset + 8 <= list.count {
            let id = fourcc(list, offset)
            let size = Int(uint32(list, offset + 4))
            let body = offset + 8
            guard size <= list.count - body else { break }
            if id == code("avih"), size >= 40 {
                let microseconds = uint32(list, body)
                if microseconds > 0 { result.microsecondsPerFrame = Double(microseconds) }
                let total = uint32(list, body + 16)
                if total > 0 { result.totalFrames = Int(total) }
                result.width = Int(uint32(list, body + 32))
                result.height = Int(uint32(list, body + 36))
            } else if id == code("LIST"), size >= 4, fourcc(list, body) == code("strl") {
                if result.video == nil {
                    result.video = videoStream(list, from: body + 4, to: body + size, index: streamIndex)
                }
                streamIndex += 1
            }
            offset = body + size + (size & 1)
        }
        // The stream's own size, else the main header's.
        if var video = result.video, video.width == 0 || video.height == 0 {
            (video.width, video.height) = (result.width, result.height)
            result.video = video
        }
        return result
    }

    /// A `strl` list's stream, when it is video.
    static func videoStream(_ list: Data, from start: Int, to end: Int, index: Int) -> VideoStream? {
        var stream: VideoStream?
        var offset = start
        while offset + 8 <= end {
            let id = fourcc(list, offset)
            let size = Int(uint32(list, offset + 4))
            let body = offset + 8
            guard size <= end - body else { break }
            if id == code("strh"), size >= 36 {
                guard fourcc(list, body) == code("vids") else { return nil }
                let handler = fourcc(list, body + 4)
                let scale = uint32(list, body + 20)
                let rate = uint32(list, body + 24)
                let length = uint32(list, body + 32)
                stream = VideoStream(
                    index: index, isMJPEG: isMJPEG(handler), width: 0, height: 0,
                    frameRate: scale > 0 && rate > 0 ? Double(rate) / Double(scale) : nil,
                    length: length > 0 ? Int(length) : nil)
            } else if id == code("strf"), size >= 20, stream != nil {
                // BITMAPINFOHEADER: size, width, height (negative: top-down), planes, bits, compression.
                stream?.width = Int(Int32(bitPattern: uint32(list, body + 4)).magnitude)
                stream?.height = Int(Int32(bitPattern: uint32(list, body + 8)).magnitude)
                if isMJPEG(fourcc(list, body + 16)) { stream?.isMJPEG = true }
            }
            offset = body + size + (size & 1)
        }
        return stream
    }

    static func isMJPEG(_ code: UInt32) -> Bool {
        [Self.code("MJPG"), Self.code("mjpg"), Self.code("AVRn"), Self.code("JPEG"), Self.code("jpeg")].contains(code)
    }

    // MARK: - Bytes

    static func uint32(_ data: Data, _ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= data.count else { return 0 }
        let base = data.startIndex + offset
        return (0..<4).reduce(0) { $0 | UInt32(data[base + $1]) << (8 * UInt32($1)) }
    }

    static func fourcc(_ data: Data, _ offset: Int) -> UInt32 { uint32(data, offset) }

    static func code(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
