import Foundation

/// A point on the monotonic clock (CLOCK_MONOTONIC, the clock V4L2 stamps buffers with),
/// in nanoseconds. Swift's own instants cannot be built from a raw value, hence this type.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Seconds from `earlier` to `self` (negative when `earlier` is later).
    public func seconds(since earlier: MonotonicInstant) -> Double {
        Double(nanoseconds - earlier.nanoseconds) / 1e9
    }

    public func advanced(bySeconds seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds + Int64((seconds * 1e9).rounded()))
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    public var description: String { String(format: "%.6fs", seconds) }
}

/// Where every stage reads the time; injectable so tests can drive it by hand.
public protocol MonotonicClock: Sendable {
    var now: MonotonicInstant { get }
}

/// CLOCK_MONOTONIC of the running system.
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}

    public var now: MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}

/// A clock that moves only when told to; for tests and for simulated (virtual) time.
public final class ManualClock: MonotonicClock {
    private let current: Protected<MonotonicInstant>

    public init(start: MonotonicInstant = .zero) { current = Protected(start) }

    public var now: MonotonicInstant { current.withLock { $0 } }

    public func advance(bySeconds seconds: Double) {
        current.withLock { $0 = $0.advanced(bySeconds: seconds) }
    }

    public func set(_ instant: MonotonicInstant) {
        current.withLock { $0 = instant }
    }
}
