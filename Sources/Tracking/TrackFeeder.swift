import DockCore

/// Paces `track(_:cameraInformation:)` calls inside DockKit's 10–30 Hz contract and decides
/// what each call carries: the chosen subject as last seen, with the stamp of that frame, or
/// nothing when the subject has not been seen recently (the motors then hold instead of chasing
/// a stale position). It does not extrapolate in the image: while the camera turns, image
/// motion is mostly the camera's own; the control law predicts in the head's angles from the
/// frame's stamp instead.
///
/// A call goes out as soon as a result from a newer frame exists, so no command waits for a
/// schedule. A credit paces the calls: it grows by `headroom` calls a period, holds at most
/// `burst`, and each call spends one. Without new results the calls go on every
/// `holdInterval`, so the accessory keeps hearing from the pipeline when detection stalls.
public struct TrackFeeder: Sendable {
    public static let allowedRates: ClosedRange<Double> = 10...30
    /// Results come at the camera's rate with the jitter of detection: a credit that grows 4 %
    /// faster than `rate` and can bank 0.2 of a call lets a result that comes early go out at
    /// once (down to 0.77 of a period after the last call). DockKit judges the mean of the
    /// last 5 to 10 intervals: n intervals span at least (n − 0.2) / 1.04 periods, so at most
    /// 32.5 Hz at 30 Hz over 5 intervals and 31.8 Hz over 10, inside its 10 % tolerance.
    public static let headroom = 1.04
    public static let burst = 1.2

    public let rate: Double
    /// Subjects last seen longer ago than this are not submitted.
    public let freshness: Double
    public private(set) var lastCall: MonotonicInstant?
    private var credit = TrackFeeder.burst
    private var creditTime: MonotonicInstant?

    public struct RateOutOfRange: Error, CustomStringConvertible {
        public let rate: Double
        public var description: String { "track rate \(rate) Hz is outside DockKit's 10…30 Hz" }
    }

    public init(rate: Double = 30, freshness: Double = 0.1) throws(RateOutOfRange) {
        guard Self.allowedRates.contains(rate) else { throw RateOutOfRange(rate: rate) }
        self.rate = rate
        self.freshness = freshness
    }

    public var period: Double { 1 / rate }

    /// The longest gap between calls while no new result comes: long enough that a result due
    /// within half a period is not pre-empted by a call without it, short enough to stay above
    /// DockKit's 10 Hz.
    public var holdInterval: Double { min(1.5 * period, 1 / Self.allowedRates.lowerBound) }

    /// True when a call should go out at `now`: for a `fresh` result (one from a newer frame
    /// than the last call carried) as soon as the credit allows, otherwise once `holdInterval`
    /// has passed since the last call.
    public mutating func isDue(at now: MonotonicInstant, fresh: Bool) -> Bool {
        guard let last = lastCall else {
            lastCall = now
            creditTime = now
            credit = Self.burst - 1
            return true
        }
        refill(to: now)
        // A hair of tolerance: a caller that wakes exactly at `nextDue` is due.
        guard credit >= 1 - 1e-9, fresh || now.seconds(since: last) >= holdInterval - 1e-9 else { return false }
        credit -= 1
        lastCall = now
        return true
    }

    /// When a call can next go out: for a fresh result once the credit allows, otherwise at
    /// the hold interval (nil before the first call: at once).
    public func nextDue(fresh: Bool) -> MonotonicInstant? {
        guard let last = lastCall, let since = creditTime else { return nil }
        let creditReady = since.advanced(bySeconds: max(0, 1 - credit) * period / Self.headroom)
        return fresh ? creditReady : max(creditReady, last.advanced(bySeconds: holdInterval))
    }

    private mutating func refill(to now: MonotonicInstant) {
        guard let since = creditTime, now > since else { return }
        credit = min(Self.burst, credit + now.seconds(since: since) * Self.headroom / period)
        creditTime = now
    }

    /// The observations for a call at `now`: the subject as last seen, or none if stale.
    public func observations(for subject: TrackedSubject?, at now: MonotonicInstant) -> [Observation] {
        observations(for: subject.map { [$0] } ?? [], at: now)
    }

    /// Several subjects framed together (a group): each one still fresh.
    public func observations(for subjects: [TrackedSubject], at now: MonotonicInstant) -> [Observation] {
        subjects.filter { now.seconds(since: $0.lastStamp.time) <= freshness }.map { subject in
            Observation(identifier: subject.id, kind: subject.kind, rect: subject.observedRect,
                        faceYaw: subject.faceYaw, confidence: subject.confidence, stamp: subject.lastStamp)
        }
    }
}
