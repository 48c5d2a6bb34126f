import DockCore

/// A constant-velocity Kalman filter for a box: centre x, centre y, width and height each carry a
/// position and a velocity, filtered independently (the axes' noises are uncorrelated, so the
/// joint 8-state filter splits into four 2-state ones exactly). Noise scales with the box's size,
/// as a detector's jitter does: a near face jumps more pixels than a far one.
public struct BoxKalmanFilter: Sendable, Hashable {
    /// One axis: state (position, velocity) and its covariance [[p00, p01], [p01, p11]].
    struct Axis: Sendable, Hashable {
        var position: Double
        var velocity = 0.0
        var p00: Double
        var p01 = 0.0
        var p11: Double

        mutating func predict(dt: Double, acceleration: Double) {
            position += velocity * dt
            // Q for white-noise acceleration of spectral density `acceleration`².
            let q = acceleration * acceleration
            let dt2 = dt * dt
            p00 += dt * (2 * p01 + dt * p11) + q * dt2 * dt / 3
            p01 += dt * p11 + q * dt2 / 2
            p11 += q * dt
        }

        mutating func correct(measurement: Double, variance: Double) {
            let s = p00 + variance
            let k0 = p00 / s
            let k1 = p01 / s
            let residual = measurement - position
            position += k0 * residual
            velocity += k1 * residual
            let (q00, q01, q11) = (p00, p01, p11)
            p00 = (1 - k0) * q00
            p01 = (1 - k0) * q01
            p11 = q11 - k1 * q01
        }
    }

    /// Measurement noise: standard deviation as a share of the box's height.
    public static let measurementNoise = 0.05
    /// Random-walk acceleration of the centre (box heights per s²) and of the size.
    public static let centreAcceleration = 4.0
    public static let sizeAcceleration = 1.0

    var axes: [Axis]
    public private(set) var time: MonotonicInstant

    public init(_ rect: NormalizedRect, at time: MonotonicInstant) {
        let scale = max(rect.height, 1e-3)
        let positionVariance = (2 * Self.measurementNoise * scale) * (2 * Self.measurementNoise * scale)
        let velocityVariance = (scale * 2) * (scale * 2)  // unknown: up to two box sizes a second
        axes = [rect.midX, rect.midY, rect.width, rect.height].map {
            Axis(position: $0, p00: positionVariance, p11: velocityVariance)
        }
        self.time = time
    }

    public var rect: NormalizedRect { Self.rect(axes) }
    public var velocityX: Double { axes[0].velocity }
    public var velocityY: Double { axes[1].velocity }

    /// Moves the state to `time` (no-op for a time not after the current one).
    public mutating func predict(to time: MonotonicInstant) {
        let dt = time.seconds(since: self.time)
        guard dt > 0 else { return }
        let scale = max(axes[3].position, 1e-3)
        for k in axes.indices {
            axes[k].predict(dt: dt, acceleration: (k < 2 ? Self.centreAcceleration : Self.sizeAcceleration) * scale)
        }
        // A box does not shrink to nothing while coasting.
        axes[2].position = max(axes[2].position, 1e-3)
        axes[3].position = max(axes[3].position, 1e-3)
        self.time = time
    }

    /// The box the filter expects at `time`, without changing the filter.
    public func predicted(at time: MonotonicInstant) -> NormalizedRect {
        var copy = self
        copy.predict(to: time)
        return copy.rect
    }

    public mutating func correct(with measured: NormalizedRect, at time: MonotonicInstant) {
        predict(to: time)
        let sigma = Self.measurementNoise * max(measured.height, 1e-3)
        let values = [measured.midX, measured.midY, measured.width, measured.height]
        for k in axes.indices { axes[k].correct(measurement: values[k], variance: sigma * sigma) }
    }

    static func rect(_ axes: [Axis]) -> NormalizedRect {
        let w = axes[2].position
        let h = axes[3].position
        return NormalizedRect(x: axes[0].position - w / 2, y: axes[1].position - h / 2, width: w, height: h)
    }
}
