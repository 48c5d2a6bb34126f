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
    /// What happened to the frames the source did not deliver.
    var counts: SourceCounts { get }
    /// The next frame, or nil at the end of the stream.
    func nextFrame() throws(FrameSourceError) -> Frame?
}

extension FrameSource {
    /// A source that knows only its dropped frames counts them as damaged.
    public var counts: SourceCounts { SourceCounts(damaged: droppedFrames) }
}

/// The frames a source produced but did not deliver, by cause. With the frames it delivered
/// they account for every frame the camera (or recording, or simulator) produced.
public struct SourceCounts: Sendable, Hashable {
    /// Never delivered by the driver (gaps in its sequence numbers).
    public var lostInDriver = 0
    /// Left in the driver's queue because a newer frame was already there.
    public var skippedForNewer = 0
    /// Data that would not decode (a corrupt JPEG, a truncated buffer).
    public var damaged = 0
    /// Buffers the driver flagged as bad.
    public var errorFlagged = 0
    /// A simulated camera more than a frame period behind its clock skips the frame, as a
    /// camera's own queue would.
    public var late = 0
    /// Left undecoded on purpose: the perception runs at a lower rate than the camera's.
    public var thinned = 0

    public init(
        lostInDriver: Int = 0, skippedForNewer: Int = 0, damaged: Int = 0, errorFlagged: Int = 0, late: Int = 0,
        thinned: Int = 0
    ) {
        self.lostInDriver = lostInDriver
        self.skippedForNewer = skippedForNewer
        self.damaged = damaged
        self.errorFlagged = errorFlagged
        self.late = late
        self.thinned = thinned
    }

    public var total: Int { lostInDriver + skippedForNewer + damaged + errorFlagged + late + thinned }
}
