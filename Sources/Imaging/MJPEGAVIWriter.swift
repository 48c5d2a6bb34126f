import DockCore
import Glibc

/// An MJPEG AVI written without a video library: each frame a JPEG from libturbojpeg (4:2:0), in
/// a RIFF AVI 1.0 file with an `idx1` index, the file webcams record and players read. The
/// headers' sizes and frame counts are brought up to date every `refreshFrames` frames, so a
/// file cut short (a crash, a pulled plug) still plays; the index goes at the end on `close`.
/// A file stops short of `fileLimit` (2 GB by default: what older players read) and the
/// recording goes on in NAME-2.avi, NAME-3.avi, … With `keepBytes` the recording keeps only
/// its newest parts, like a dashboard camera: a part stops short of a quarter of it, and
/// starting a part removes the oldest ones until the kept parts and the new one fit, so a
/// service that records for months never fills its disk. The index waits in NAME.avi.idx
/// beside the file (16 bytes a frame) until the file is finished, so the writer's memory does
/// not grow with the recording; a file cut short leaves it behind and plays without it.
public final class MJPEGAVIWriter: VideoFileWriting {
    public let size: PixelSize
    public let quality: Int
    public let fileLimit: Int64
    /// The most the kept parts take together, bytes; nil keeps every part.
    public let keepBytes: Int64?
    /// The file being written.
    public private(set) var path: String
    /// Frames written, over every file.
    public private(set) var framesWritten = 0
    /// Oldest parts removed to stay within `keepBytes`.
    public private(set) var partsRemoved = 0
    /// Finished parts still on disk, oldest first, with their sizes.
    private var keptParts: [(path: String, bytes: Int64)] = []
    private let basePath: String
    private let microsecondsPerFrame: UInt32
    private let rate: UInt32
    private var descriptor: FileDescriptor?
    private var length: Int64 = 0
    /// Index entries not yet in the index file (at most `refreshFrames` of them).
    private var pendingIndex: [UInt8] = []
    private var indexFile: FileDescriptor?
    private var indexBytes = 0
    private var framesInFile = 0
    private var largestChunk = 0
    private var part = 1
    static let refreshFrames = 30
    /// Where the `movi` list's type sits: `idx1` offsets count from it.
    static let moviType: Int64 = 220

    public init(
        path: String, size: PixelSize, fps: Double, quality: Int = 80, fileLimit: Int64 = 2_000_000_000,
        keepBytes: Int64? = nil
    ) throws(ImagingError) {
        precondition(fps > 0 && fileLimit > 4096 && (keepBytes ?? .max) / 4 > 4096)
        self.size = size
        self.quality = quality
        self.fileLimit = keepBytes.map { min(fileLimit, $0 / 4) } ?? fileLimit
        self.keepBytes = keepBytes
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
        let ending = max(length, Self.moviType + 4) + 8 + Int64(padded) + 8 + Int64(indexBytes + 16)
        if framesInFile > 0, ending > fileLimit {
            try finishFile()
            keptParts.append((path, length))
            try removeOldestParts()
            part += 1
            try open("\(basePath)-\(part).avi")
        }
        // The headers go out with the first frame: a disk already full fails a write, not the start.
        let header = length == 0 ? headers() : []
        let chunkStart = length + Int64(header.count)
        var bytes = header + Self.fourCC("00dc") + Self.le32(UInt32(jpeg.count)) + jpeg
        if jpeg.count % 2 == 1 { bytes.append(0) }
        try perform { (d) throws(Errno) in try d.writeAll(bytes) }
        pendingIndex +=
            Self.fourCC("00dc") + Self.le32(0x10) + Self.le32(UInt32(chunkStart - Self.moviType))
            + Self.le32(UInt32(jpeg.count))
        length = chunkStart + Int64(bytes.count - header.count)
        framesInFile += 1
        framesWritten += 1
        largestChunk = max(largestChunk, jpeg.count)
        indexBytes += 16
        if framesInFile % Self.refreshFrames == 0 {
            try flushIndex()
            try refreshHeaders(indexed: false)
        }
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
        do { indexFile = try FileDescriptor.create(Self.indexPath(of: file)) } catch {
            throw ImagingError(operation: "open video", message: "cannot create \(Self.indexPath(of: file)): \(error)")
        }
        path = file
        length = 0
        pendingIndex.removeAll(keepingCapacity: true)
        indexBytes = 0
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
            indexFile?.close()
            indexFile = nil
            try? FileDescriptor.removeFile(Self.indexPath(of: path))
        }
        try flushIndex()
        try perform { (d) throws(Errno) in try d.writeAll(Self.fourCC("idx1") + Self.le32(UInt32(indexBytes))) }
        try copyIndex()
        let trailer = Int64(8 + indexBytes)
        try refreshHeaders(indexed: true, fileLength: length + trailer)
        length += trailer
    }

    static func indexPath(of file: String) -> String { file + ".idx" }

    /// Puts the entries waiting in memory into the index file.
    private func flushIndex() throws(ImagingError) {
        guard let indexFile, !pendingIndex.isEmpty else { return }
        do { try indexFile.writeAll(pendingIndex) } catch {
            throw ImagingError(operation: "write video", message: "\(Self.indexPath(of: path)): \(error)")
        }
        pendingIndex.removeAll(keepingCapacity: true)
    }

    /// Appends the index file to the video, a block at a time.
    private func copyIndex() throws(ImagingError) {
        let indexPath = Self.indexPath(of: path)
        do {
            let source = try FileDescriptor.open(indexPath, O_RDONLY)
            defer { source.close() }
            var block = [UInt8](repeating: 0, count: 65_536)
            var copied = 0
            while copied < indexBytes {
                let count = try source.read(into: &block)
                guard count > 0 else { throw Errno.io }  // the index file was cut short under us
                try descriptor?.writeAll(Array(block[..<count]))
                copied += count
            }
        } catch {
            throw ImagingError(operation: "write video", message: "\(path): its index from \(indexPath): \(error)")
        }
    }

    /// Makes room for a new part within `keepBytes`: the oldest parts go first.
    private func removeOldestParts() throws(ImagingError) {
        guard let keepBytes else { return }
        while let oldest = keptParts.first, keptParts.reduce(fileLimit, { $0 + $1.bytes }) > keepBytes {
            do { try FileDescriptor.removeFile(oldest.path) } catch {
                // A part someone already took away is gone all the same.
                guard error == .noEntry else {
                    throw ImagingError(operation: "remove old video", message: "cannot remove \(oldest.path): \(error)")
                }
            }
            keptParts.removeFirst()
            partsRemoved += 1
        }
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
