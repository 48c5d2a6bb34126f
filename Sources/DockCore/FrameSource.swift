/// Why a source could not deliver frames.
public struct FrameSourceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The source cannot go on (unreadable file, unsupported device).
        case failed
        /// The device went away (unplugged); it may come back.
        case disconnected
        /// No frame arrived in time; the device may be stalled.
        case timeout
    }

    public let kind: Kind
    public let message: String

    public init(_ message: String, kind: Kind = .failed) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Anything that yields frames in order: a camera, a recorded file, a generated scene.
/// `nextFrame()` may block; call it from a thread of its own, never from Swift's cooperative pool.
public protocol FrameSource: AnyObject {
    /// What this source reads, for logs ("video.avi (MJPEG 1280x720 @ 30 fps)").
    var summary: String { get }
    var size: PixelSize { get }
    var nominalFrameRate: Double { get }
    /// Frames the source threw away (corrupt data, error flags); they never reach a detector.
    var droppedFrames: Int { get }
    /// The next frame, or nil at the end of the stream.
    func nextFrame() throws(FrameSourceError) -> Frame?
}
