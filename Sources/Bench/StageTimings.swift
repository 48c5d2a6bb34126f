import Foundation

/// Wall-clock time spent per pipeline stage, per frame (milliseconds).
public struct StageTimings: Sendable {
    public private(set) var samples: [String: [Double]] = [:]
    public private(set) var order: [String] = []

    public init() {}

    public mutating func record(_ stage: String, milliseconds: Double) {
        if samples[stage] == nil { order.append(stage) }
        samples[stage, default: []].append(milliseconds)
    }

    public func percentiles(_ stage: String) -> Percentiles { Percentiles(samples[stage] ?? []) }

    /// A table: stage, median, p99, mean (ms).
    public func table() -> String {
        var lines = ["stage         median ms   p99 ms   mean ms   frames"]
        for stage in order {
            let p = percentiles(stage)
            lines.append(stage.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %10.2f %8.2f %9.2f %8d", p.median ?? 0, p.p99 ?? 0, p.mean ?? 0, p.count))
        }
        return lines.joined(separator: "\n")
    }
}
