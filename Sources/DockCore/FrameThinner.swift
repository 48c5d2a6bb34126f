/// Which frames a perception slower than its camera takes: a frame that comes less than three
/// quarters of the interval after the last one taken is let go, so 30 fps thinned to 15 keeps
/// every other frame whatever the camera's jitter. A pure value: the caller says when each
/// frame was captured.
public struct FrameThinner: Sendable {
    public let rate: Double
    private var lastTaken: MonotonicInstant?

    public init(rate: Double) { self.rate = rate }

    /// Whether the frame captured at `time` is taken (and becomes the last one taken).
    public mutating func takes(_ time: MonotonicInstant) -> Bool {
        if let last = lastTaken, time.seconds(since: last) < 0.75 / rate { return false }
        lastTaken = time
        return true
    }
}
