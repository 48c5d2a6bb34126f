import DockCore

/// An MJPEG AVI written without a video library: each frame a JPEG from libturbojpeg (4:2:0), in
/// a RIFF AVI 1.0 file with an `idx1` index, the file webcams record and players read. The
/// headers' sizes and frame counts are brought up to date every `refreshFrames` frames, so a
/// file cut short (a crash, a pulled plug) still plays; the index goes at the end on `close`.
/// A file stops short of `fileLimit` (2 GB by default: what older players read) and the
/// recording goes on in NAME-2.avi, NAME-3.avi, … Its memory is the index of the current file,
/// 16 bytes a frame.
public final class MJPEGAVIWriter: VideoFileWriting {
    public let size: PixelSize
    public let quality: Int
    public let fileLimit: Int64
    /// The file being written.
    public private(set) var path: String
    /// Frames written, over every file.
    public private(set) var framesWritten = 0
    private let basePath: String
    private let microsecondsPerFrame: UInt32
    private let rate: UInt32
    private var descriptor: FileDescriptor?
    private var length: Int64 = 0
    private var index: [UInt8] = []
    private var framesInFile = 0
    private var largestChunk = 0
    private var part = 1
    static let refreshFrames = 30
    /// Where the `movi` list's type sits: `idx1` offsets count from it.
    static let moviType: Int64 = 220

    public init(
        path: String, size: PixelSize, fps: Double, quality: Int = 80, fileLimit: Int64 = 2_000_000_000
    ) throws(ImagingError) {
        precondition(fps > 0 && fileLimit > 4096)
        self.size = size
        self.quality = quality
        self.fileLimit = fileLimit
        self.path = path
        basePath = path.hasSuffix(".avi") ? String(path.dropLast(4)) : path
        microsecondsPerFrame = UInt32((1e6 / fps).rounded())
        rate = UInt32((fps * 1000).rounded())
        try open(path)
    }

    public func write(_ frame: Frame) throws(ImagingError) {
        guard descriptor != nil else {
            throw ImagingError(operation: "write video", message: "\(path): the file is closed")
        }
        guard frame.size == size, frame.format == .bgr else {
            throw ImagingError(
                operation: "write video", message: "\(path): a frame of \(frame.size), not \(size) colour")
        }
        let jpeg = try frame.jpegData(quality: quality)
        let padded = jpeg.count + jpeg.count % 2
        let ending = max(length, Self.moviType + 4) + 8 + Int64(padded) + 8 + Int64(index.count + 16)
        if framesInFile > 0, ending > fileLimit {
            try finishFile()
            part += 1
            try open("\(basePath)-\(part).avi")
        }
        // The headers go out with the first frame: a disk already full fails a write, not the start.
        let header = length == 0 ? headers() : []
        let chunkStart = length + Int64(header.count)
        var bytes = header + Self.fourCC("00dc") + Self.le32(UInt32(jpeg.count)) + jpeg
        if jpeg.count % 2 == 1 { bytes.append(0) }
        try perform { (d) throws(Errno) in try d.writeAll(bytes) }
        index +=
            Self.fourCC("00dc") + Self.le32(0x10) + Self.le32(UInt32(chunkStart - Self.moviType))
            + Self.le32(UInt32(jpeg.count))
        length = chunkStart + Int64(bytes.count - header.count)
        framesInFile += 1
        framesWritten += 1
        largestChunk = max(largestChunk, jpeg.count)
        if framesInFile % Self.refreshFrames == 0 { try refreshHeaders(indexed: false) }
    }

    /// Adds the index and the final sizes; later writes fail.
    public func close() {
        try? finishFile()
    }

    deinit { close() }

    private func open(_ file: String) throws(ImagingError) {
        do { descriptor = try FileDescriptor.create(file) } catch {
            throw ImagingError(operation: "open video", message: "cannot create \(file): \(error)")
        }
        path = file
        length = 0
        index = []
        framesInFile = 0
        largestChunk = 0
    }

    private func finishFile() throws(ImagingError) {
        guard descriptor != nil else { return }
        if length == 0 {
            let header = headers()
            try perform { (d) throws(Errno) in try d.writeAll(header) }
            length = Int64(header.count)
        }
        defer {
            descriptor?.close()
            descriptor = nil
        }
        let trailer = Self.fourCC("idx1") + Self.le32(UInt32(index.count)) + index
        try perform { (d) throws(Errno) in try d.writeAll(trailer) }
        try refreshHeaders(indexed: true, fileLength: length + Int64(trailer.count))
        length += Int64(trailer.count)
    }

    /// The counts and sizes the headers carry, written in place.
    private func refreshHeaders(indexed: Bool, fileLength: Int64? = nil) throws(ImagingError) {
        let total = fileLength ?? length
        let frames = Self.le32(UInt32(framesInFile))
        let buffer = Self.le32(UInt32(largestChunk))
        let patches: [(Int64, [UInt8])] = [
            (4, Self.le32(UInt32(total - 8))), (44, Self.le32(indexed ? 0x10 : 0)), (48, frames), (60, buffer),
            (140, frames), (144, buffer), (216, Self.le32(UInt32(length - Self.moviType))),
        ]
        for (offset, bytes) in patches {
            try perform { (d) throws(Errno) in try d.writeAll(bytes, at: offset) }
        }
    }

    private func perform(_ body: (FileDescriptor) throws(Errno) -> Void) throws(ImagingError) {
        guard let descriptor else { return }
        do { try body(descriptor) } catch {
            throw ImagingError(operation: "write video", message: "\(path): \(error)")
        }
    }

    /// RIFF, the `hdrl` list (main header, one video stream's header and format) and the
    /// start of the `movi` list: 224 bytes, with the counts left at zero.
    private func headers() -> [UInt8] {
        let (w, h) = (UInt32(size.width), UInt32(size.height))
        var b = Self.fourCC("RIFF") + Self.le32(0) + Self.fourCC("AVI ")
        b += Self.fourCC("LIST") + Self.le32(192) + Self.fourCC("hdrl")
        b += Self.fourCC("avih") + Self.le32(56) + Self.le32(microsecondsPerFrame) + Self.le32(0) + Self.le32(0)
        b += Self.le32(0) + Self.le32(0) + Self.le32(0) + Self.le32(1) + Self.le32(0) + Self.le32(w) + Self.le32(h)
        b += [UInt8](repeating: 0, count: 16)
        b += Self.fourCC("LIST") + Self.le32(116) + Self.fourCC("strl")
        b += Self.fourCC("strh") + Self.le32(56) + Self.fourCC("vids") + Self.fourCC("MJPG") + Self.le32(0)
        b += Self.le32(0) + Self.le32(0) + Self.le32(1000) + Self.le32(rate) + Self.le32(0) + Self.le32(0)
        b += Self.le32(0) + Self.le32(UInt32.max) + Self.le32(0)
        b += Self.le16(0) + Self.le16(0) + Self.le16(UInt16(w)) + Self.le16(UInt16(h))
        b += Self.fourCC("strf") + Self.le32(40) + Self.le32(40) + Self.le32(w) + Self.le32(h)
        b += Self.le16(1) + Self.le16(24) + Self.fourCC("MJPG") + Self.le32(w * h * 3)
        b += [UInt8](repeating: 0, count: 16)
        b += Self.fourCC("LIST") + Self.le32(4) + Self.fourCC("movi")
        assert(b.count == Int(Self.moviType) + 4)
        return b
    }

    static func fourCC(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
}
