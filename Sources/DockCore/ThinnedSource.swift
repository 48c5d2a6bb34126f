/// A source whose frames reach the caller at most `rate` a second: the others are taken from
/// the inner source and let go, counted as thinned. For sources that must make every frame
/// anyway (a simulated camera, a recording); a camera thins before decoding instead.
public final class ThinnedSource: FrameSource {
    private let inner: any FrameSource
    public let rate: Double
    private var lastDelivered: MonotonicInstant?
    private var thinned = 0

    public init(_ inner: any FrameSource, rate: Double) {
        self.inner = inner
        self.rate = rate
    }

    public var summary: String { inner.summary }
    public var size: PixelSize { inner.size }
    public var nominalFrameRate: Double { inner.nominalFrameRate }
    public var droppedFrames: Int { inner.droppedFrames }

    public var counts: SourceCounts {
        var counts = inner.counts
        counts.thinned += thinned
        return counts
    }

    /// As a camera thins: a frame less than three quarters of the interval after the last one
    /// delivered is let go, so 30 fps thinned to 15 keeps every other frame whatever the jitter.
    public func nextFrame() throws(FrameSourceError) -> Frame? {
        while let frame = try inner.nextFrame() {
            if let last = lastDelivered, frame.stamp.time.seconds(since: last) < 0.75 / rate {
                thinned += 1
                continue
            }
            lastDelivered = frame.stamp.time
            return frame
        }
        return nil
    }
}
