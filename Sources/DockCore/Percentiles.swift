/// Order statistics of a sample (nearest-rank on the sorted sample, linear between ranks).
public struct Percentiles: Sendable, Hashable {
    public let sorted: [Double]

    public init<S: Sequence>(_ samples: S) where S.Element == Double {
        sorted = samples.filter(\.isFinite).sorted()
    }

    public var count: Int { sorted.count }
    public var isEmpty: Bool { sorted.isEmpty }

    /// The p-th percentile, p in 0…100; nil for an empty sample.
    public func value(at p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(max(p, 0), 100) / 100 * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = Int(rank.rounded(.up))
        let f = rank - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * f
    }

    public var median: Double? { value(at: 50) }
    public var p99: Double? { value(at: 99) }
    public var mean: Double? { sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count) }
    public var rootMeanSquare: Double? {
        sorted.isEmpty ? nil : (sorted.reduce(0) { $0 + $1 * $1 } / Double(sorted.count)).squareRoot()
    }
}
