import DockCore

/// A stretch of captured sound: one array per channel, the first sample at `start` on the
/// frames' monotonic clock.
public struct AudioBlock: Sendable {
    public var channels: [[Float]]
    public var sampleRate: Double
    public var start: MonotonicInstant
    /// Counts blocks from 0 in the order they were captured.
    public var sequence: Int
    /// Samples were lost just before this block (an overrun): it does not continue the last one.
    public var followsGap: Bool

    public init(
        channels: [[Float]], sampleRate: Double, start: MonotonicInstant, sequence: Int, followsGap: Bool = false
    ) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.start = start
        self.sequence = sequence
        self.followsGap = followsGap
    }

    public var frameCount: Int { channels.first?.count ?? 0 }
    public var duration: Double { Double(frameCount) / sampleRate }
}

/// Anything that yields sound in order: a microphone, a recording. `nextBlock()` blocks; call it
/// from a thread of its own, never from Swift's cooperative pool.
public protocol AudioSource: AnyObject {
    /// What this source reads, for logs ("ALSA 'hw:1': 2 channels at 48000 Hz").
    var summary: String { get }
    var sampleRate: Double { get }
    var channelCount: Int { get }
    /// The next block, or nil at the end of the stream.
    func nextBlock() throws(AudioError) -> AudioBlock?
}
