import DockCore
import Foundation
import Motion

/// Turns a head's battery voltage into DockKit's battery states: read once a second, reported
/// when the level moves by a percent or more, when it turns low or back, and every 30 s
/// regardless; a client that subscribes later hears the state last reported first.
package final class BatteryWatch: Sendable {
    private struct State {
        var gauge = BatteryGauge()
        var last: BatteryGauge.Reading?
        var checkedAt: MonotonicInstant?
        var reportedAt: MonotonicInstant?
        var reported: BatteryState?
    }
    private let state = Protected(State())
    /// The name of the one battery a head reports.
    static let name = "battery"

    package init() {}

    package func configure(_ gauge: BatteryGauge) { state.withLock { $0.gauge = gauge } }

    /// The latest reading, for the status page and /metrics.
    package var latest: BatteryGauge.Reading? { state.withLock { $0.last } }
    /// The state last reported, which a new subscriber hears first.
    package var latestState: BatteryState? { state.withLock { $0.reported } }

    /// Reads `volts` (nil: nothing reported yet) at `now`; the state to report, when one is due.
    package func check(_ volts: Double?, at now: MonotonicInstant) -> BatteryState? {
        state.withLock { s in
            if let checked = s.checkedAt, now.seconds(since: checked) < 1 { return nil }
            s.checkedAt = now
            guard let volts else { return nil }
            let reading = s.gauge.reading(volts: volts)
            let due =
                s.last.map { abs($0.level - reading.level) >= 0.01 || $0.isLow != reading.isLow } ?? true
                || s.reportedAt.map { now.seconds(since: $0) >= 30 } ?? true
            s.last = reading
            guard due else { return nil }
            s.reportedAt = now
            let report = BatteryState(
                name: Self.name, batteryLevel: reading.level, chargeState: .notCharging, lowBattery: reading.isLow)
            s.reported = report
            return report
        }
    }
}
