/// A source whose frames reach the caller at most `rate` a second: the others are taken from
/// the inner source and let go, counted as thinned. For sources that must make every frame
/// anyway (a simulated camera, a recording); a camera thins before decoding instead.
public final class ThinnedSource: FrameSource {
    private let inner: any FrameSource
    private var thinner: FrameThinner
    private var thinned = 0

    public init(_ inner: any FrameSource, rate: Double) {
        self.inner = inner
        thinner = FrameThinner(rate: rate)
    }

    public var rate: Double { thinner.rate }

    public var summary: String { inner.summary }
    public var size: PixelSize { inner.size }
    public var nominalFrameRate: Double { inner.nominalFrameRate }
    public var droppedFrames: Int { inner.droppedFrames }

    public var counts: SourceCounts {
        var counts = inner.counts
        counts.thinned += thinned
        return counts
    }

    /// As a camera thins (`FrameThinner`).
    public func nextFrame() throws(FrameSourceError) -> Frame? {
        while let frame = try inner.nextFrame() {
            if thinner.takes(frame.stamp.time) { return frame }
            thinned += 1
        }
        return nil
    }
}
