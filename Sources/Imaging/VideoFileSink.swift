import DockCore
import Foundation

/// What `VideoFileSink` writes through: `VideoWriter`, or a test's slow or failing file.
public protocol VideoFileWriting: AnyObject {
    func write(_ frame: Frame) throws(ImagingError)
    func close()
}

extension VideoWriter: VideoFileWriting {}

/// A video file written on its own thread, so that a slow or full disk never holds up a live
/// frame path. Frames wait in a short queue; in real time a frame that finds it full is dropped
/// and counted (the disk fell behind), while a run on media time (`waitsWhenFull`) waits for
/// room and keeps every frame. A write that fails stops the sink. Each is said once, through
/// `takeNotices`. The queue holds `depth` frames at most: its memory is fixed.
public final class VideoFileSink: @unchecked Sendable {
    public struct Figures: Sendable, Hashable {
        public var written = 0
        /// Frames dropped because the queue was full.
        public var dropped = 0
        /// Why the file stopped early, when it did.
        public var failure: String?
    }

    public let path: String
    public let size: PixelSize
    public let depth: Int
    public let waitsWhenFull: Bool
    private let writer: any VideoFileWriting
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [Frame] = []
    private var figures = Figures()
    private var notices: [String] = []
    private var finishing = false
    private var stopped = false

    /// A video of `size` at `fps`: an .avi is MJPEG written by `MJPEGAVIWriter`, anything else
    /// goes through OpenCV.
    public convenience init(
        path: String, size: PixelSize, fps: Double, depth: Int = 3, waitsWhenFull: Bool = false
    ) throws(ImagingError) {
        let writer: any VideoFileWriting =
            path.hasSuffix(".avi")
            ? try MJPEGAVIWriter(path: path, size: size, fps: fps) : try VideoWriter(path: path, size: size, fps: fps)
        self.init(path: path, size: size, writer: writer, depth: depth, waitsWhenFull: waitsWhenFull)
    }

    /// Starts the writing thread; it owns `writer` from now on.
    public init(
        path: String, size: PixelSize, writer: any VideoFileWriting, depth: Int = 3, waitsWhenFull: Bool = false
    ) {
        precondition(depth > 0)
        self.waitsWhenFull = waitsWhenFull
        self.path = path
        self.size = size
        self.writer = writer
        self.depth = depth
        let thread = Thread { [self] in drain() }
        thread.name = "video file"
        thread.start()
    }

    /// Queues a frame of `size`; waits only when `waitsWhenFull`.
    public func submit(_ frame: Frame) {
        condition.lock()
        defer { condition.unlock() }
        while waitsWhenFull && queue.count >= depth && !stopped && !finishing { condition.wait() }
        guard !stopped, !finishing else { return }
        guard queue.count < depth else {
            if figures.dropped == 0 {
                notices.append(
                    "video \(path): the disk is not keeping up; frames it cannot take are dropped and counted")
            }
            figures.dropped += 1
            return
        }
        queue.append(frame)
        condition.signal()
    }

    /// Lines to say, once each: the disk fell behind, the file stopped.
    public func takeNotices() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { notices.removeAll() }
        return notices
    }

    public var current: Figures {
        condition.lock()
        defer { condition.unlock() }
        return figures
    }

    /// Writes what is queued, closes the file and returns the figures; later frames are ignored.
    @discardableResult
    public func finish() -> Figures {
        condition.lock()
        defer { condition.unlock() }
        finishing = true
        condition.broadcast()
        while !stopped { condition.wait() }
        return figures
    }

    private func drain() {
        while let frame = next() {
            do {
                try writer.write(frame)
                condition.lock()
                figures.written += 1
                condition.unlock()
            } catch {
                condition.lock()
                let line = "video \(path) stopped after \(figures.written) frames: \(error)"
                figures.failure = line
                notices.append(line)
                queue.removeAll()
                condition.unlock()
                break
            }
        }
        writer.close()
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame to write; nil once finishing and the queue is empty.
    private func next() -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finishing { condition.wait() }
        guard !queue.isEmpty else { return nil }
        condition.broadcast()  // room for a submitter waiting on a full queue
        return queue.removeFirst()
    }
}
