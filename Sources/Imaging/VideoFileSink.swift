import DockCore
import Foundation

/// What `VideoFileSink` writes through: `VideoWriter`, or a test's slow or failing file.
public protocol VideoFileWriting: AnyObject {
    func write(_ frame: Frame) throws(ImagingError)
    func close()
}

extension VideoWriter: VideoFileWriting {}

/// A video file written on its own thread (`FileSinkThread`), so that a slow or full disk never
/// holds up a live frame path: in real time a frame that finds the queue full is dropped and
/// counted, on media time (`waitsWhenFull`) it waits; a write that fails stops the video. The
/// queue holds `depth` frames at most.
public final class VideoFileSink: Sendable {
    public typealias Figures = FileSinkThread<Frame>.Figures

    public let path: String
    public let size: PixelSize
    private let sink: FileSinkThread<Frame>

    /// A video of `size` at `fps`: an .avi is MJPEG written by `MJPEGAVIWriter` (which keeps
    /// only the newest `keepBytes` when given), anything else goes through OpenCV.
    public convenience init(
        path: String, size: PixelSize, fps: Double, keepBytes: Int64? = nil, depth: Int = 3,
        waitsWhenFull: Bool = false
    ) throws(ImagingError) {
        precondition(keepBytes == nil || path.hasSuffix(".avi"), "only an .avi recording is kept in parts")
        let writer: any VideoFileWriting =
            path.hasSuffix(".avi")
            ? try MJPEGAVIWriter(path: path, size: size, fps: fps, keepBytes: keepBytes)
            : try VideoWriter(path: path, size: size, fps: fps)
        self.init(path: path, size: size, writer: writer, depth: depth, waitsWhenFull: waitsWhenFull)
    }

    /// Starts the writing thread; it owns `writer` from now on.
    public init(
        path: String, size: PixelSize, writer: any VideoFileWriting, depth: Int = 3, waitsWhenFull: Bool = false
    ) {
        self.path = path
        self.size = size
        sink = FileSinkThread(
            name: "video file", depth: depth, waitsWhenFull: waitsWhenFull,
            wording: .init(
                fellBehind: "video \(path): the disk is not keeping up; frames it cannot take are dropped and counted",
                stopped: { written, error in "video \(path) stopped after \(written) frames: \(error)" }),
            write: { frame in try writer.write(frame) }, close: { writer.close() })
    }

    public var depth: Int { sink.depth }
    public var waitsWhenFull: Bool { sink.waitsWhenFull }

    /// Queues a frame of `size`; waits only when `waitsWhenFull`.
    public func submit(_ frame: Frame) { sink.submit(frame) }

    /// Lines to say, once each: the disk fell behind, the file stopped.
    public func takeNotices() -> [String] { sink.takeNotices() }

    public var current: Figures { sink.current }

    /// Writes what is queued, closes the file and returns the figures; later frames are ignored.
    @discardableResult
    public func finish() -> Figures { sink.finish() }
}
