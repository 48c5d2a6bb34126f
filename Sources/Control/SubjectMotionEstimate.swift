import DockCore

/// How one axis of a subject moves, from its recent directions (radians, in the head's own
/// angles, at capture times): a straight line fitted over the last `window` seconds. The slope
/// is the subject's angular rate; it counts as motion only when it is large against its own
/// uncertainty, so a hand-held frame's wobble and a detector's box jitter are not followed,
/// while a slow, steady walk is. A subject whose newest directions all fall behind the line has
/// stopped or turned round, and a direction far off the line is a jump (a cut, another face):
/// either way the fit starts again from the newest.
public struct SubjectMotionEstimate: Sendable {
    public struct Settings: Sendable, Hashable {
        /// Seconds of observations fitted.
        public var window = 1.0
        /// Slower than this (rad/s) is standing still, however steady.
        public var minimumRate = 0.5 * .pi / 180
        /// A rate counts as motion when it is this many standard errors from zero.
        public var significance = 4.0
        /// The fit must span this long (s) before its slope is believed.
        public var minimumSpan = 0.4
        /// A direction this far off the line (rad), or `jumpSigmas` residual deviations, is a jump.
        public var jump = 4.0 * .pi / 180
        public var jumpSigmas = 8.0
        /// A still subject's direction is the mean of its last this many seconds.
        public var stillAveraging = 0.3
        /// The newest this many directions all behind the line, by this much on average (rad)
        /// or three of their standard errors: the subject is slowing down.
        public var breakSamples = 5
        public var breakAngle = 0.4 * .pi / 180

        public init() {}
    }

    public let settings: Settings
    private var samples: [(time: Double, angle: Double)] = []
    /// Whether the subject was moving at the last fit (for hysteresis).
    public private(set) var isMoving = false
    /// The fitted rate (rad/s) whether or not it counts as motion.
    public private(set) var fittedRate = 0.0
    /// The slope of the newer half of the window (rad/s): where a subject that stops or turns
    /// round is going now.
    public private(set) var recentRate = 0.0
    /// Residual standard deviation of the directions about the line (rad): the box jitter.
    public private(set) var jitter = 0.0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The subject's rate to follow (rad/s): the fitted rate while it counts as motion, else 0.
    public var rate: Double { isMoving ? fittedRate : 0 }

    /// Adds a direction seen at `time` (seconds on any steady clock). Returns true when it was a
    /// jump and the estimate started again.
    @discardableResult
    public mutating func add(angle: Double, at time: Double) -> Bool {
        if let last = samples.last, time <= last.time { return false }
        var jumped = false
        if let last = samples.last, time - last.time > settings.window / 2 {
            samples.removeAll()  // seen again after a gap: the old line says nothing now
        } else if samples.count >= 3 {
            let expected = direction(at: time, following: fittedRate)
            if abs(angle - expected) > max(settings.jump, settings.jumpSigmas * jitter) {
                samples.removeAll()
                jumped = true
            }
        }
        samples.append((time, angle))
        samples.removeAll { time - $0.time > settings.window }
        fit()
        return jumped
    }

    /// The subject's direction at `time` (s): along the line while it moves, else where it stands.
    public func direction(at time: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        return direction(at: time, following: rate)
    }

    private func direction(at time: Double, following rate: Double) -> Double {
        let latest = samples[samples.count - 1].time
        if rate != 0 {
            let mean = meanPoint(samples[...])
            return mean.angle + rate * (time - mean.time)
        }
        return meanPoint(samples.drop { latest - $0.time > settings.stillAveraging }).angle
    }

    private func meanPoint(_ points: ArraySlice<(time: Double, angle: Double)>) -> (time: Double, angle: Double) {
        let n = Double(points.count)
        return (points.reduce(0) { $0 + $1.time } / n, points.reduce(0) { $0 + $1.angle } / n)
    }

    private mutating func fit() {
        let (mean, stt, fitted) = line(samples[...])
        let span = samples[samples.count - 1].time - samples[0].time
        guard samples.count >= 4, let slope = fitted, span >= settings.minimumSpan else {
            fittedRate = 0
            recentRate = samples.count >= 3 ? fitted ?? 0 : 0
            isMoving = false
            if samples.count >= 2 {
                let residual = samples.reduce(0) { $0 + ($1.angle - mean.angle) * ($1.angle - mean.angle) }
                jitter = (residual / Double(samples.count - 1)).squareRoot()
            }
            return
        }
        var residual = 0.0
        for s in samples {
            let r = s.angle - (mean.angle + slope * (s.time - mean.time))
            residual += r * r
        }
        jitter = (residual / Double(samples.count - 2)).squareRoot()
        let standardError = jitter / stt.squareRoot()
        fittedRate = slope
        // Hysteresis: a subject already moving keeps moving down to half the thresholds.
        let scale = isMoving ? 0.5 : 1
        let significant =
            abs(slope) >= settings.minimumRate * scale && abs(slope) >= settings.significance * scale * standardError
        // Steady: the newer half of the window goes the same way (a face wobbling about a
        // hand-held frame swings back within the window; a walker does not).
        let middle = samples[0].time + span / 2
        let newer = samples.drop { $0.time < middle }
        recentRate = newer.count >= 3 ? line(newer).slope ?? 0 : 0
        if isMoving && slowing(slope: slope, mean: mean) {
            // Stopped or turning round: the old line is done with; what comes next is fitted anew.
            samples.removeFirst(samples.count - settings.breakSamples)
            isMoving = false
            fittedRate = 0
            return
        }
        isMoving = significant && recentRate * slope > 0
    }

    /// A subject that stops or turns round falls behind the line at once: its newest directions
    /// all lag it. It is then no longer followed as moving, a window before the slope says so.
    private func slowing(slope: Double, mean: (time: Double, angle: Double)) -> Bool {
        let newest = settings.breakSamples
        guard samples.count > 2 * newest else { return false }
        let lags = samples.suffix(newest).map { ($0.angle - (mean.angle + slope * ($0.time - mean.time))) * -slope }
        let average = lags.reduce(0, +) / Double(newest) / abs(slope)
        let threshold = max(settings.breakAngle, 3 * jitter / Double(newest).squareRoot())
        return lags.allSatisfy { $0 > 0 } && average > threshold
    }

    /// The least-squares line through `points`: their mean, the spread of their times, and the
    /// slope (nil when the times do not spread).
    private func line(_ points: ArraySlice<(time: Double, angle: Double)>) -> (
        mean: (time: Double, angle: Double), stt: Double, slope: Double?
    ) {
        let mean = meanPoint(points)
        var stt = 0.0
        var sta = 0.0
        for p in points {
            stt += (p.time - mean.time) * (p.time - mean.time)
            sta += (p.time - mean.time) * (p.angle - mean.angle)
        }
        return (mean, stt, stt > 0 ? sta / stt : nil)
    }
}
