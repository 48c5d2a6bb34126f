import DockCore

/// DockKit's rule for `track(_:cameraInformation:)`: a fixed rate between 10 and 30 calls per
/// second. Judged on the mean interval of the last calls, with 10 % tolerance for jitter; a
/// pause longer than `sessionGap` starts a new tracking session and is not counted as slow.
struct TrackRateContract: Sendable {
    static let slowest = 10.0
    static let fastest = 30.0
    var tolerance = 0.1
    var window = 10
    var minimumIntervals = 5
    var sessionGap = 2.0
    private(set) var times: [MonotonicInstant] = []

    /// Records a call at `time`; throws when the sustained rate is outside 10…30 Hz. A refused
    /// call is still recorded, so a client that slows down to the allowed rate recovers.
    mutating func record(_ time: MonotonicInstant) throws(DockKitError) {
        if let last = times.last, time.seconds(since: last) > sessionGap { times.removeAll() }
        times.append(time)
        if times.count > window + 1 { times.removeFirst(times.count - window - 1) }
        guard times.count > minimumIntervals else { return }
        let rate = Double(times.count - 1) / max(times.last!.seconds(since: times.first!), 1e-9)
        if rate > Self.fastest * (1 + tolerance) { throw .frameRateTooHigh }
        if rate < Self.slowest / (1 + tolerance) { throw .frameRateTooLow }
    }

    mutating func reset() { times.removeAll() }
}
