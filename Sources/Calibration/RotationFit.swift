import Foundation

/// The axis a calibration move turns.
public enum TurnAxis: String, Sendable { case pan, tilt }

/// A piece of the picture before a turn and where it was after: pixels from the principal
/// point, x to the right, y down.
public struct PointMotion: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var movedX: Double
    public var movedY: Double

    public init(x: Double, y: Double, movedX: Double, movedY: Double) {
        self.x = x
        self.y = y
        self.movedX = movedX
        self.movedY = movedY
    }
}

/// The focal length and the angle of a pure turn about one axis, from how the picture moved.
/// A turn of a pinhole camera is a homography that depends on both: the centre moves by
/// f·tan(angle), and the edges by more, with a keystone across the other axis, in a way only
/// the true focal length explains. So one turn of a few degrees over a textured scene gives
/// the field of view and the angle actually turned, whatever the head says it turned.
public enum RotationFit {
    public struct Result: Sendable, Hashable {
        /// Pixels.
        public var focalLength: Double
        /// Radians: pan positive to the right, tilt positive down (the camera's, not the head's).
        public var angle: Double
        /// Root-mean-square distance between the points' moves and the model's, pixels.
        public var residual: Double
        /// Points the fit kept (the rest moved on their own: a person, a reflection).
        public var points: Int
    }

    /// Where a point at (x, y) appears after the camera turns by `angle` about `axis`.
    public static func predicted(
        x: Double, y: Double, focalLength f: Double, angle: Double, axis: TurnAxis
    ) -> (x: Double, y: Double) {
        let (c, s) = (cos(angle), sin(angle))
        switch axis {
        case .pan:
            let z = x * s + f * c
            return (f * (x * c - f * s) / z, f * y / z)
        case .tilt:
            let z = y * s + f * c
            return (f * x / z, f * (y * c - f * s) / z)
        }
    }

    /// The focal length (searched over `focalRange`, or fixed when `knownFocalLength` is
    /// given) and angle that best explain `motions`; points whose move the best fit leaves
    /// more than three times the median off are dropped and the fit made again.
    public static func fit(
        _ motions: [PointMotion], axis: TurnAxis, focalRange: ClosedRange<Double>, knownFocalLength: Double? = nil
    ) -> Result? {
        guard motions.count >= 4 else { return nil }
        var kept = motions
        var best = solve(kept, axis: axis, focalRange: focalRange, known: knownFocalLength)
        let errors = kept.map { error(of: $0, best, axis: axis) }
        let limit = 3 * max(median(errors), 0.05)
        kept = zip(kept, errors).filter { $0.1 <= limit }.map(\.0)
        if kept.count >= 4, kept.count < motions.count {
            best = solve(kept, axis: axis, focalRange: focalRange, known: knownFocalLength)
        }
        let residual = sqrt(kept.map { pow(error(of: $0, best, axis: axis), 2) }.reduce(0, +) / Double(kept.count))
        return Result(focalLength: best.focal, angle: best.angle, residual: residual, points: kept.count)
    }

    private static func error(of m: PointMotion, _ fit: (focal: Double, angle: Double), axis: TurnAxis) -> Double {
        let p = predicted(x: m.x, y: m.y, focalLength: fit.focal, angle: fit.angle, axis: axis)
        return hypot(p.x - m.movedX, p.y - m.movedY)
    }

    private static func cost(_ motions: [PointMotion], focal: Double, angle: Double, axis: TurnAxis) -> Double {
        motions.reduce(0) { $0 + pow(error(of: $1, (focal, angle), axis: axis), 2) }
    }

    /// The best angle for a focal length: the points' own angles give the bracket.
    private static func angle(for focal: Double, _ motions: [PointMotion], axis: TurnAxis) -> Double {
        let own = motions.map { m in
            axis == .pan ? atan(m.x / focal) - atan(m.movedX / focal) : atan(m.y / focal) - atan(m.movedY / focal)
        }
        let centre = median(own)
        let spread = max(0.02, (own.max()! - own.min()!))
        return minimum(in: (centre - spread)...(centre + spread)) { cost(motions, focal: focal, angle: $0, axis: axis) }
    }

    private static func solve(
        _ motions: [PointMotion], axis: TurnAxis, focalRange: ClosedRange<Double>, known: Double?
    ) -> (focal: Double, angle: Double) {
        if let known { return (known, angle(for: known, motions, axis: axis)) }
        // A coarse sweep in the logarithm first (the cost has one valley, but a flat one), then a fine search.
        let steps = 120
        let (low, high) = (log(focalRange.lowerBound), log(focalRange.upperBound))
        let sweep = (0...steps).map { exp(low + (high - low) * Double($0) / Double(steps)) }
        let costs = sweep.map { f in cost(motions, focal: f, angle: angle(for: f, motions, axis: axis), axis: axis) }
        let index = costs.indices.min { costs[$0] < costs[$1] }!
        let bracket = sweep[max(0, index - 1)]...sweep[min(steps, index + 1)]
        let focal = minimum(in: bracket) { f in
            cost(motions, focal: f, angle: angle(for: f, motions, axis: axis), axis: axis)
        }
        return (focal, angle(for: focal, motions, axis: axis))
    }

    /// Golden-section search for the least of `f` over `range`.
    static func minimum(in range: ClosedRange<Double>, _ f: (Double) -> Double) -> Double {
        let ratio = (sqrt(5) - 1) / 2
        var (a, b) = (range.lowerBound, range.upperBound)
        var c = b - ratio * (b - a)
        var d = a + ratio * (b - a)
        var (fc, fd) = (f(c), f(d))
        for _ in 0..<60 where b - a > 1e-9 * max(1, abs(a)) {
            if fc < fd {
                (b, d, fd) = (d, c, fc)
                c = b - ratio * (b - a)
                fc = f(c)
            } else {
                (a, c, fc) = (c, d, fd)
                d = a + ratio * (b - a)
                fd = f(d)
            }
        }
        return (a + b) / 2
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
