import DockCore

/// How a simulated gimbal responds, per axis: like a real head it cannot turn faster than its
/// top speed, cannot change speed faster than its acceleration limit, acts on a command only
/// after a latency, stops hard at the ends of travel and may move only in speed steps.
public struct GimbalModel: Sendable, Hashable {
    public var maximumSpeed: Double  // rad/s
    public var maximumAcceleration: Double  // rad/s²
    public var latency: Double  // s from command to effect
    /// The latency the device says it has, when that is not its real one (a model table that
    /// is wrong for this camera and link); nil = it says the truth.
    public var declaredLatency: Double?
    public var speedStep: Double  // rad/s; 0 = continuous
    public var yawRange: ClosedRange<Double>
    public var pitchRange: ClosedRange<Double>
    /// How the head is mounted: on an inverted axis the camera turns opposite to what the
    /// head reads (a head hung upside down). The engine knows only the reading.
    public var mount = MountDirections.normal
    /// How far the camera truly turns per unit the head reads (a head whose units are off).
    public var scales = AxisScales.exact

    public init(
        maximumSpeed: Double = 3.0, maximumAcceleration: Double = 12.0, latency: Double = 0.04,
        speedStep: Double = 0, yawRange: ClosedRange<Double> = -2.6...2.6,
        pitchRange: ClosedRange<Double> = -0.6...0.6
    ) {
        self.maximumSpeed = maximumSpeed
        self.maximumAcceleration = maximumAcceleration
        self.latency = latency
        self.speedStep = speedStep
        self.yawRange = yawRange
        self.pitchRange = pitchRange
    }
}

/// The pure state of a simulated gimbal (yaw and pitch); integrate with `advance(to:)`.
public struct GimbalDynamics: Sendable {
    public let model: GimbalModel
    public private(set) var position = Vector3D()
    public private(set) var velocity = Vector3D()
    public private(set) var time: MonotonicInstant
    /// Commands not yet in effect, oldest first, with the time they take effect. Bounded: a
    /// command replaces every pending one that would take effect later.
    private var pending: [(effective: MonotonicInstant, velocity: Vector3D)] = []
    private var target = Vector3D()

    public init(model: GimbalModel, start: MonotonicInstant = .zero, position: Vector3D = Vector3D()) {
        self.model = model
        self.time = start
        self.position = position
    }

    public mutating func command(_ velocity: Vector3D, at time: MonotonicInstant) {
        let effective = time.advanced(bySeconds: model.latency)
        pending.removeAll { $0.effective >= effective }
        pending.append((effective, quantised(velocity)))
        if pending.count > 256 { pending.removeFirst(pending.count - 256) }
    }

    /// Moves the state forward to `end` in 1 ms steps.
    public mutating func advance(to end: MonotonicInstant) {
        let step = 0.001
        while time < end {
            let dt = min(step, end.seconds(since: time))
            let now = time.advanced(bySeconds: dt)
            while let first = pending.first, first.effective <= now {
                target = first.velocity
                pending.removeFirst()
            }
            velocity.y = approach(velocity.y, target.y, dt)
            velocity.x = approach(velocity.x, target.x, dt)
            position.y += velocity.y * dt
            position.x += velocity.x * dt
            if !model.yawRange.contains(position.y) {
                position.y = min(max(position.y, model.yawRange.lowerBound), model.yawRange.upperBound)
                velocity.y = 0
            }
            if !model.pitchRange.contains(position.x) {
                position.x = min(max(position.x, model.pitchRange.lowerBound), model.pitchRange.upperBound)
                velocity.x = 0
            }
            time = now
        }
    }

    private func approach(_ current: Double, _ goal: Double, _ dt: Double) -> Double {
        let goal = min(max(goal, -model.maximumSpeed), model.maximumSpeed)
        let change = model.maximumAcceleration * dt
        if abs(goal - current) <= change { return goal }
        return current + (goal > current ? change : -change)
    }

    private func quantised(_ v: Vector3D) -> Vector3D {
        guard model.speedStep > 0 else { return v }
        func q(_ x: Double) -> Double { (x / model.speedStep).rounded() * model.speedStep }
        return Vector3D(x: q(v.x), y: q(v.y), z: 0)
    }
}
