/// How old an observation may be and still move the motors: the one staleness rule, shared by
/// the feeder that chooses what to send and the dock that refuses what is too old.
public struct Freshness: Sendable, Hashable {
    /// Seconds from capture.
    public var maximumAge: Double

    /// Two frame periods at 30 fps, plus slack: a subject missed in one frame is still sent,
    /// one missed for longer no longer drives the head.
    public static let observations = Freshness(maximumAge: 0.1)

    public init(maximumAge: Double) { self.maximumAge = maximumAge }

    /// Whether something captured at `time` is fresh at `now`.
    public func isFresh(_ time: MonotonicInstant, at now: MonotonicInstant) -> Bool {
        now.seconds(since: time) <= maximumAge
    }
}
