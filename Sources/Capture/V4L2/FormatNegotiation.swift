import DockCore
import Foundation

/// What a caller wants from a camera.
public struct CaptureRequest: Sendable, Hashable {
    public var size = PixelSize(width: 1280, height: 720)
    public var frameRate = 30.0
    /// Decode at this fraction of the negotiated size (DCT scaling for MJPEG).
    public var decodeScale: DecodeScale = .full
    /// Frames decoded smaller than the camera's picture keep its JPEG (or its raw buffer, leased
    /// from the driver), so that regions can be decoded in full when asked (`Frame.detail`).
    public var keepDetail = false
    public var pixelFormat: PixelFormat = .bgr
    /// A stream that delivers nothing for this long is reported as stalled.
    public var stallTimeout = 2.0
    public var bufferCount = 4
    /// At most this many frames a second are decoded and delivered (the others go back to the
    /// driver undecoded, counted as thinned); nil delivers every frame.
    public var deliveredRate: Double?

    public init() {}
}

/// The format a camera was asked for.
public struct FormatChoice: Sendable, Hashable {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    public var frameRate: Double

    public init(fourcc: FourCC, width: Int, height: Int, frameRate: Double) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// Picks a capture format: MJPEG at the requested size and rate first (what USB 2.0 can carry at
/// 720p30), then YUYV at that size and rate, then MJPEG or YUYV at the nearest size, then any
/// other format OpenDock decodes (the camera's own before libv4lconvert's emulated ones).
public enum FormatNegotiation {
    /// Raw layouts the decoder understands besides JPEG.
    public static let decodable: [FourCC] = [.yuyv, .nv12, .yuv420, .bgr24, .rgb24, .grey]

    public static func choose(from formats: [V4L2FormatInfo], for request: CaptureRequest) -> FormatChoice? {
        let usable = formats.filter { $0.fourcc.isJPEG || decodable.contains($0.fourcc) }
        func exact(_ f: V4L2FormatInfo) -> V4L2FrameSize? {
            f.sizes.first {
                $0.width == request.size.width && $0.height == request.size.height
                    && ($0.frameRates.isEmpty || $0.frameRates.contains { $0 >= request.frameRate * 0.95 })
            }
        }
        let jpeg = usable.filter { $0.fourcc.isJPEG && !$0.emulated }
        let yuyv = usable.filter { $0.fourcc == .yuyv && !$0.emulated }
        let others = usable.filter { !$0.fourcc.isJPEG && $0.fourcc != .yuyv }.sorted { !$0.emulated && $1.emulated }
        for format in jpeg + yuyv {
            if let size = exact(format) { return choice(format, size, request) }
        }
        for format in jpeg + yuyv + others {
            if let size = nearest(format.sizes, to: request.size) { return choice(format, size, request) }
        }
        // A driver that lists no sizes (some emulated formats): ask for the request as it is.
        if let format = (jpeg + yuyv + others).first {
            return FormatChoice(
                fourcc: format.fourcc, width: request.size.width, height: request.size.height,
                frameRate: request.frameRate)
        }
        return nil
    }

    static func choice(_ format: V4L2FormatInfo, _ size: V4L2FrameSize, _ request: CaptureRequest) -> FormatChoice {
        let rate =
            size.frameRates.min { abs($0 - request.frameRate) < abs($1 - request.frameRate) } ?? request.frameRate
        return FormatChoice(fourcc: format.fourcc, width: size.width, height: size.height, frameRate: rate)
    }

    /// The size closest in area (log scale), preferring sizes at least as large as asked.
    static func nearest(_ sizes: [V4L2FrameSize], to wanted: PixelSize) -> V4L2FrameSize? {
        func cost(_ s: V4L2FrameSize) -> Double {
            let ratio = Double(s.width * s.height) / Double(wanted.width * wanted.height)
            let smaller = s.width < wanted.width || s.height < wanted.height
            return abs(log(ratio)) + (smaller ? 1 : 0)
        }
        return sizes.min { cost($0) < cost($1) }
    }
}
