import Foundation

/// What a subject looks like, coarsely: normalized histograms (brightness, and the red and green
/// shares of colour) over the face and over the clothes below it. Enough to tell whether a
/// person who comes into view is one seen a few seconds before, cheap enough for every face.
public struct Appearance: Sendable, Hashable {
    /// Each part is a histogram summing to 1; an empty part was not seen (a torso below the frame,
    /// colour in a grey picture) and is left out of comparisons.
    public private(set) var parts: [[Float]]

    public init(parts: [[Float]]) {
        self.parts = parts.map { part in
            let total = part.reduce(0, +)
            return total > 0 ? part.map { $0 / total } : []
        }
    }

    /// The largest Hellinger distance over the parts both have: 0 for the same histograms, 1
    /// for disjoint ones. The largest, not the mean: two people alike in colour but not in
    /// brightness (or the reverse) are two people. Nil when they share no part.
    public func distance(to other: Appearance) -> Double? {
        var largest: Double?
        for (a, b) in zip(parts, other.parts) where !a.isEmpty && a.count == b.count {
            let overlap = zip(a, b).reduce(0.0) { $0 + (Double($1.0) * Double($1.1)).squareRoot() }
            largest = max(largest ?? 0, max(0, 1 - overlap).squareRoot())
        }
        return largest
    }

    /// A running mean: `weight` of `newer`, the rest of this one; parts only one side saw are
    /// taken from it.
    public func blended(with newer: Appearance, weight: Double) -> Appearance {
        let w = Float(weight)
        let count = max(parts.count, newer.parts.count)
        let mixed = (0..<count).map { i -> [Float] in
            let a = i < parts.count ? parts[i] : []
            let b = i < newer.parts.count ? newer.parts[i] : []
            if a.isEmpty || a.count != b.count { return b.isEmpty ? a : b }
            return zip(a, b).map { (1 - w) * $0 + w * $1 }
        }
        return Appearance(parts: mixed)
    }
}
