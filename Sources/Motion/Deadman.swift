import DockCore

/// Host-side deadman: unless fed within `timeout`, it expires and the motors must stop.
public struct Deadman: Sendable {
    public let timeout: Double
    public private(set) var lastFed: MonotonicInstant?

    public init(timeout: Double = 0.2) { self.timeout = timeout }

    public mutating func feed(at time: MonotonicInstant) { lastFed = time }

    public func isExpired(at time: MonotonicInstant) -> Bool {
        guard let lastFed else { return true }
        return time.seconds(since: lastFed) >= timeout
    }
}
