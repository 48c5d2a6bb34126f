import CTurboJPEG
import DockCore

/// DCT scaling offered by libjpeg-turbo: decoding at a fraction of the size skips work.
public enum DecodeScale: Int, Sendable, CaseIterable, CustomStringConvertible {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    public var description: String { self == .full ? "1/1" : "1/\(rawValue)" }

    /// The scaled length, rounded up as libjpeg-turbo does.
    public func scaled(_ length: Int) -> Int { (length + rawValue - 1) / rawValue }

    /// The coarsest scale that leaves at least `wanted` pixels of `width` (full when none does):
    /// what a detector with a `wanted`-wide input needs, decoded no larger.
    public static func coarsest(keeping wanted: Int, of width: Int) -> DecodeScale {
        allCases.reversed().first { $0.scaled(width) >= wanted } ?? .full
    }
}

public enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidHeader(String)
    /// The data is damaged; libjpeg-turbo may still have written pixels, but they are not trusted.
    case corrupt(String)

    public var description: String {
        switch self {
        case .invalidHeader(let m): "not a decodable JPEG: \(m)"
        case .corrupt(let m): "corrupt or truncated JPEG: \(m)"
        }
    }
}

/// MJPEG frame decoding with libturbojpeg. One decoder per thread.
public final class JPEGDecoder {
    private var handle: tjhandle

    public init() {
        handle = tjInitDecompress()
    }

    deinit { tjDestroy(handle) }

    /// Image size stored in the JPEG header.
    public func size(of data: UnsafeRawBufferPointer) throws(JPEGError) -> PixelSize {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard tjDecompressHeader3(handle, base, UInt(data.count), &width, &height, &subsampling, &colorspace) == 0
        else {
            let error = message()
            renewHandle()
            throw .invalidHeader(error)
        }
        // A header cut off before its frame marker can "succeed" with no size at all.
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            renewHandle()
            throw .invalidHeader("no image size in the header (\(width)x\(height))")
        }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Decodes at `scale` into BGR or gray. Any warning (damaged data) drops the frame. With
    /// `keepingDetail` a frame decoded smaller than the picture keeps a copy of the JPEG, from
    /// which regions can be decoded in full later (`JPEGDetail`).
    public func decode(
        _ data: UnsafeRawBufferPointer, scale: DecodeScale = .full, format: PixelFormat = .bgr,
        stamp: FrameStamp, keepingDetail: Bool = false
    ) throws(JPEGError) -> Frame {
        let full = try size(of: data)
        let size = PixelSize(width: scale.scaled(full.width), height: scale.scaled(full.height))
        var frame = Frame(stamp: stamp, width: size.width, height: size.height, format: format)
        let pixelFormat = format == .bgr ? TJPF_BGR : TJPF_GRAY
        let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let rowBytes = Int32(frame.bytesPerRow)
        let status = frame.pixels.withUnsafeMutableBufferPointer { out in
            tjDecompress2(
                handle, base, UInt(data.count), out.baseAddress, Int32(size.width), rowBytes,
                Int32(size.height), Int32(pixelFormat.rawValue), TJFLAG_FASTDCT)
        }
        // libturbojpeg returns -1 for warnings too (e.g. premature end of data): both are damage.
        if status != 0 {
            let error = message()
            renewHandle()
            throw .corrupt(error)
        }
        if keepingDetail && scale != .full { frame.detail = JPEGDetail(copying: data, fullSize: full) }
        return frame
    }

    /// After a failure libturbojpeg's handle keeps part of the damaged stream's state and
    /// misreads the next header (as 0x0): a fresh handle keeps a damaged frame from costing
    /// the good one after it.
    private func renewHandle() {
        tjDestroy(handle)
        handle = tjInitDecompress()
    }

    private func message() -> String { String(cString: tjGetErrorStr2(handle)) }
}
