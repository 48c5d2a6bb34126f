import DockCore

/// Paces `track(_:cameraInformation:)` calls inside DockKit's 10–30 Hz contract and decides
/// what each call carries: the chosen subject as last seen, with the stamp of that frame, or
/// nothing when the subject has not been seen recently (the motors then hold instead of chasing
/// a stale position). It does not extrapolate in the image: while the camera turns, image
/// motion is mostly the camera's own; the control law predicts in the head's angles from the
/// frame's stamp instead.
///
/// A call goes out as soon as a result from a newer frame exists, so no command waits for a
/// schedule. Two rules pace the calls. A credit grows by `headroom` calls a period, banks at
/// most `burst`, and each call spends one: the sustained rate, and the slack that lets a
/// result delayed by a slow frame go out at once after it. And DockKit's own judgement, with
/// a margin: over the last 5 to 10 intervals the mean rate stays within `ceiling` of `rate`.
/// Without new results the calls go on every `holdInterval`, so the accessory keeps hearing
/// from the pipeline when detection stalls.
public struct TrackFeeder: Sendable {
    public static let allowedRates: ClosedRange<Double> = 10...30
    /// The credit grows 5 % faster than `rate` and banks one whole call: a result that queued
    /// behind a slow frame costs no lasting debt (with less in the bank, such a pair every six
    /// frames leaves one that 5 % cannot repay in time, and every later command waits). Whether
    /// the pair may go out at once is the windows' decision below.
    public static let headroom = 1.05
    public static let burst = 2.0
    /// DockKit judges the mean of the last 5 to 10 intervals against 30 Hz + 10 %; 8 % above
    /// the rate (32.4 Hz at 30) leaves room for the two sides' clocks to disagree.
    public static let ceiling = 1.08
    /// The windows DockKit judges, in intervals: from its fifth to its tenth.
    static let windows = 5...10

    public let rate: Double
    /// Subjects last seen longer ago than this allows are not submitted.
    public let freshness: Freshness
    /// The last calls, oldest first (as many as DockKit's longest window).
    public private(set) var recentCalls: [MonotonicInstant] = []
    public var lastCall: MonotonicInstant? { recentCalls.last }
    private var credit = TrackFeeder.burst
    private var creditTime: MonotonicInstant?

    public struct RateOutOfRange: Error, CustomStringConvertible {
        public let rate: Double
        public var description: String { "track rate \(rate) Hz is outside DockKit's 10…30 Hz" }
    }

    public init(rate: Double = 30, freshness: Freshness = .observations) throws(RateOutOfRange) {
        guard Self.allowedRates.contains(rate) else { throw RateOutOfRange(rate: rate) }
        self.rate = rate
        self.freshness = freshness
    }

    public var period: Double { 1 / rate }

    /// The gap between calls while no new result comes, a little under DockKit's slowest
    /// 10 Hz: long enough that a result slowed by a busy machine is not pre-empted by a call
    /// without it (which would spend the rate the result needs), short enough to keep the
    /// contract while detection stalls.
    public static let holdInterval = 0.09

    /// True when a call should go out at `now`: for a `fresh` result (one from a newer frame
    /// than the last call carried) as soon as the pacing allows, otherwise once `holdInterval`
    /// has passed since the last call.
    public mutating func isDue(at now: MonotonicInstant, fresh: Bool) -> Bool {
        // A hair of tolerance: a caller that wakes exactly at `nextDue` is due.
        if let due = nextDue(fresh: fresh), now.advanced(bySeconds: 1e-9) < due { return false }
        if let since = creditTime, now > since {
            credit = min(Self.burst, credit + now.seconds(since: since) * Self.headroom / period)
        }
        credit -= 1
        creditTime = now
        recentCalls.append(now)
        if recentCalls.count > Self.windows.upperBound {
            recentCalls.removeFirst(recentCalls.count - Self.windows.upperBound)
        }
        return true
    }

    /// When a call can next go out: for a fresh result as soon as the pacing allows, otherwise
    /// at the hold interval (nil before the first call: at once).
    public func nextDue(fresh: Bool) -> MonotonicInstant? {
        guard let last = recentCalls.last, let since = creditTime else { return nil }
        var earliest = since.advanced(bySeconds: max(0, 1 - credit) * period / Self.headroom)
        // n calls back, n intervals: they may span no less than n periods at the ceiling rate.
        for n in Self.windows where n <= recentCalls.count {
            earliest = max(
                earliest, recentCalls[recentCalls.count - n].advanced(bySeconds: Double(n) * period / Self.ceiling))
        }
        return fresh ? earliest : max(earliest, last.advanced(bySeconds: Self.holdInterval))
    }

    /// The observations for a call at `now`: the subject as last seen, or none if stale.
    public func observations(for subject: TrackedSubject?, at now: MonotonicInstant) -> [Observation] {
        observations(for: subject.map { [$0] } ?? [], at: now)
    }

    /// Several subjects framed together (a group): each one still fresh.
    public func observations(for subjects: [TrackedSubject], at now: MonotonicInstant) -> [Observation] {
        subjects.filter { freshness.isFresh($0.lastStamp.time, at: now) }.map { subject in
            Observation(
                identifier: subject.id, kind: subject.kind, rect: subject.observedRect,
                faceYaw: subject.faceYaw, confidence: subject.confidence, stamp: subject.lastStamp)
        }
    }
}
