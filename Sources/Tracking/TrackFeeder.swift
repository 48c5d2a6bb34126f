import DockCore

/// Paces `track(_:cameraInformation:)` calls at a fixed rate (10–30 Hz), independent of how
/// often detection produces results, and decides what each call carries: the chosen subject as
/// last seen, with the stamp of that frame, or nothing when the subject has not been seen
/// recently (the motors then hold instead of chasing a stale position). It does not extrapolate
/// in the image: while the camera turns, image motion is mostly the camera's own; the control
/// law predicts in the head's angles from the frame's stamp instead.
public struct TrackFeeder: Sendable {
    public static let allowedRates: ClosedRange<Double> = 10...30

    public let rate: Double
    /// Subjects last seen longer ago than this are not submitted.
    public let freshness: Double
    public private(set) var nextDue: MonotonicInstant?
    /// Ticks skipped because the caller came back late.
    public private(set) var skippedTicks = 0

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

    /// A result from a newer frame may go out this soon after the previous call (a fraction of
    /// the period): a command never waits a whole period for a result that is already there,
    /// and the sustained rate stays inside DockKit's tolerance.
    public static let earliestFraction = 0.9
    public private(set) var lastCall: MonotonicInstant?

    /// True when a call should go out at `now`: on the schedule, or early for a `fresh` result
    /// (one from a newer frame than the last call carried); an early call restarts the schedule.
    public mutating func isDue(at now: MonotonicInstant, fresh: Bool) -> Bool {
        if fresh, let last = lastCall, now.seconds(since: last) >= Self.earliestFraction * period {
            nextDue = now.advanced(bySeconds: period)
            lastCall = now
            return true
        }
        return isDue(at: now)
    }

    /// True when a call is due at `now`; advances the schedule. A caller that fell more than a
    /// period behind skips the missed ticks rather than bursting them.
    public mutating func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = nextDue else {
            nextDue = now.advanced(bySeconds: period)
            lastCall = now
            return true
        }
        guard now >= due else { return false }
        var next = due.advanced(bySeconds: period)
        if now >= next {
            let behind = Int(now.seconds(since: due) / period)
            skippedTicks += behind
            next = due.advanced(bySeconds: Double(behind + 1) * period)
        }
        nextDue = next
        lastCall = now
        return true
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
