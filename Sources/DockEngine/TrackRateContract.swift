import DockCore

/// DockKit's rule for `track(_:cameraInformation:)`: a fixed rate between 10 and 30 calls per
/// second, with 10 % tolerance. A rate is outside it only when both the mean and the median
/// interval of the last calls say so: the median is not fooled by a one-off stall and the burst
/// a client sends to catch up on its schedule, the mean by calls that come unevenly around the
/// rate (a sender that answers frames as they come). A pause longer than `sessionGap` starts a
/// new tracking session and is not counted as slow.
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
        let intervals = zip(times.dropFirst(), times).map { $0.seconds(since: $1) }.sorted()
        let middle = intervals.count / 2
        let median = intervals.count % 2 == 1 ? intervals[middle] : (intervals[middle - 1] + intervals[middle]) / 2
        let mean = times.last!.seconds(since: times.first!) / Double(intervals.count)
        let (fast, slow) = (1 / max(mean, median, 1e-9), 1 / max(min(mean, median), 1e-9))
        if fast > Self.fastest * (1 + tolerance) { throw .frameRateTooHigh }
        if slow < Self.slowest / (1 + tolerance) { throw .frameRateTooLow }
    }

    mutating func reset() { times.removeAll() }
}
