import Foundation

/// The least-squares line through points: a trend in a series (memory over a soak, a turn
/// over time) and how far the points stray from it.
public struct StraightLine: Sendable, Hashable {
    public var slope: Double
    /// The line's value at x = 0.
    public var intercept: Double
    /// Root-mean-square distance of the points from the line, along y.
    public var residual: Double

    /// nil for fewer than two points, or when every x is the same.
    public init?(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "as many x as y")
        guard x.count >= 2 else { return nil }
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        let sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        guard sxx > 0 else { return nil }
        slope = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx
        intercept = my - slope * mx
        let (s, b) = (slope, intercept)
        residual = sqrt(zip(x, y).reduce(0) { $0 + pow($1.1 - b - s * $1.0, 2) } / n)
    }

    /// Where the line crosses y = 0 (nil when it is flat).
    public var zeroCrossing: Double? { slope == 0 ? nil : -intercept / slope }
}
