import Foundation

/// Wall-clock time spent per pipeline stage, per frame (milliseconds). Bounded: each stage keeps
/// its most recent `capacity` samples (a service runs for months), so figures describe the
/// latest stretch of a long run.
public struct StageTimings: Sendable {
    public let capacity: Int
    public private(set) var samples: [String: [Double]] = [:]
    public private(set) var order: [String] = []
    /// Where the next sample of each stage goes once its buffer is full.
    private var next: [String: Int] = [:]

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public mutating func record(_ stage: String, milliseconds: Double) {
        guard var stored = samples[stage] else {
            order.append(stage)
            // Its room is taken once: the resident size does not grow by copies as the buffer fills.
            var first: [Double] = []
            first.reserveCapacity(capacity)
            first.append(milliseconds)
            samples[stage] = first
            return
        }
        samples[stage] = nil  // keep the array uniquely referenced while it is changed
        if stored.count < capacity {
            stored.append(milliseconds)
        } else {
            let slot = next[stage, default: 0]
            stored[slot] = milliseconds
            next[stage] = (slot + 1) % capacity
        }
        samples[stage] = stored
    }

    public func percentiles(_ stage: String) -> Percentiles { Percentiles(samples[stage] ?? []) }

    /// A table: stage, median, p99, mean (ms).
    public func table() -> String {
        var lines = ["stage         median ms   p99 ms   mean ms   frames"]
        for stage in order {
            let p = percentiles(stage)
            lines.append(
                stage.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: " %10.2f %8.2f %9.2f %8d", p.median ?? 0, p.p99 ?? 0, p.mean ?? 0, p.count))
        }
        return lines.joined(separator: "\n")
    }
}
