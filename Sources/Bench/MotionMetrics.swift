/// Figures of a response over time, from plain samples (time, value).
public enum MotionMetrics {
    /// Step response: how long after `stepTime` the value enters and stays within `band` of
    /// `target` (nil if it never settles), and the overshoot past the target as a fraction of
    /// the step size (0 when it never passes the target).
    public static func stepResponse(
        times: [Double], values: [Double], stepTime: Double, start: Double, target: Double,
        band: Double
    ) -> (settleTime: Double?, overshoot: Double) {
        precondition(times.count == values.count)
        let step = target - start
        let direction: Double = step >= 0 ? 1 : -1
        var settledSince: Double?
        var peak = 0.0
        for (t, v) in zip(times, values) where t >= stepTime {
            peak = max(peak, (v - target) * direction)
            if abs(v - target) <= band {
                if settledSince == nil { settledSince = t }
            } else {
                settledSince = nil
            }
        }
        return (settledSince.map { $0 - stepTime }, abs(step) > 0 ? max(0, peak) / abs(step) : 0)
    }

    /// How many times the motors started: a command going from rest to motion.
    public static func motorStarts(_ commands: [Double], threshold: Double = 1e-6) -> Int {
        var starts = 0
        var moving = false
        for c in commands {
            let now = abs(c) > threshold
            if now && !moving { starts += 1 }
            moving = now
        }
        return starts
    }

    /// Root mean square of the values.
    public static func rms(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
