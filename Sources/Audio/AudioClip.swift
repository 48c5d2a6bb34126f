import DockCore

/// Why audio cannot be used; the message says what to do. Tracking goes on on vision alone.
public struct AudioError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Samples of one recording or capture, one array per channel (0 = left, 1 = right), the first
/// sample at `start` on the frames' monotonic clock (media time for recordings).
public struct AudioClip: Sendable {
    public var sampleRate: Double
    public var channels: [[Float]]
    public var start: MonotonicInstant

    public init(sampleRate: Double, channels: [[Float]], start: MonotonicInstant = .zero) {
        precondition(
            !channels.isEmpty && channels.allSatisfy { $0.count == channels[0].count }, "channels of equal length")
        self.sampleRate = sampleRate
        self.channels = channels
        self.start = start
    }

    public var frameCount: Int { channels[0].count }
    public var duration: Double { Double(frameCount) / sampleRate }
    public var isStereo: Bool { channels.count >= 2 }

    /// The sample index at a time (may lie outside the clip).
    public func index(at time: MonotonicInstant) -> Int {
        Int((time.seconds(since: start) * sampleRate).rounded(.down))
    }
}
