import DockCore
import Foundation
import Motion

public struct FramingConfiguration: Sendable, Hashable {
    /// A still subject whose angular error stays inside this band causes no motion (radians).
    public var deadBand = 2.0 * .pi / 180
    /// A still subject's band widens to this many times its box jitter (a hand-held frame, a
    /// noisy detector), so wobble alone never starts the motors.
    public var jitterBand = 1.0
    /// Once moving, the axis keeps correcting until the error is inside this band.
    public var settleBand = 0.6 * .pi / 180
    /// Proportional gains, rad/s of command per radian of error, per axis.
    public var yawGain = 5.0
    public var pitchGain = 5.0
    /// Larger errors than this get extra gain to catch up (radians).
    public var catchUpThreshold = 12.0 * .pi / 180
    public var catchUpGain = 1.5
    /// How the subject's motion is told from jitter, and its rate estimated.
    public var motion = SubjectMotionEstimate.Settings()
    /// Command-to-motion latency (s) when the device does not say.
    public var actuatorLatency = MotorCapabilities.typicalLatency
    /// While correcting towards a still subject, never slower than this (rad/s): the last degree
    /// is not crept over.
    public var minimumCorrectionSpeed = 4.0 * .pi / 180
    /// The controller's own caps, below the device's.
    public var maximumSpeed = 1.5
    public var maximumAcceleration = 8.0
    /// A slow axis the law stops (the subject in view) eases out at this deceleration (rad/s²)
    /// rather than in one frame: a creep that ends in a jolt is what makes a camera look
    /// robotic, and a stop of a frame or two between two moves would be a stop and a start.
    public var easeOutDeceleration = 30.0 * .pi / 180
    /// ... below this speed (rad/s); faster motion, and any motion once the subject is lost,
    /// stops at the full acceleration.
    public var easeOutBelow = 8.0 * .pi / 180
    /// The share of the acceleration the approach to a target plans to brake with.
    public var brakingShare = 0.6
    /// What the head does once the subject is lost (system tracking only).
    public var search = LostSubjectSearch.Settings()
    /// Where the head returns after a long loss; nil = where it was when tracking started.
    public var home: Vector3D?

    public init() {}
}

/// OpenDock's control law. The subject's offset from the framing point becomes an angle
/// through the intrinsics; its direction at capture time (the pose then plus that angle) is
/// fitted over the last second (`SubjectMotionEstimate`) to tell steady motion from jitter.
/// A moving subject is followed continuously: its rate fed forward plus a proportional
/// correction, with no dead band, so a slow walk gives a slow, steady pan. A still subject gets
/// a dead band (widened by its jitter) with hysteresis, so it never starts the motors. The error
/// is predicted to the moment the command lands — the subject moved on since its frame, the
/// head moves on during the device's latency on the commands already in flight
/// (`CommandsInFlight`) — and the command never exceeds what the device can brake from in time.
/// A slow axis it stops eases out over a few frames. Large errors get a catch-up boost;
/// commands are slew-limited. When the subject is lost the head looks for it
/// (`LostSubjectSearch`), then returns home.
public struct FramingController: ControlLaw {
    public let name = "dock"
    public let configuration: FramingConfiguration

    private struct Axis: Sendable {
        var engaged = false
        /// The subject counted as moving during this engagement.
        var followed = false
        var estimate: SubjectMotionEstimate
        var lastObserved: MonotonicInstant?
    }
    private var yaw: Axis
    private var pitch: Axis
    private var lastCommand = Vector3D()
    private var inFlight = CommandsInFlight()
    private var lastTime: MonotonicInstant?
    private var home: Vector3D?
    private var lastSighting: LostSubjectSearch.Sighting?
    private let search: LostSubjectSearch
    /// What the head did at the last update while the subject was lost (nil while it is seen).
    public private(set) var searchPhase: LostSubjectSearch.Phase?

    public init(configuration: FramingConfiguration = FramingConfiguration()) {
        self.configuration = configuration
        yaw = Axis(estimate: SubjectMotionEstimate(settings: configuration.motion))
        pitch = Axis(estimate: SubjectMotionEstimate(settings: configuration.motion))
        home = configuration.home
        search = LostSubjectSearch(settings: configuration.search)
    }

    public mutating func update(_ input: ControlInput) -> Vector3D {
        let dt = lastTime.map { min(max(input.time.seconds(since: $0), 0), 0.2) } ?? 0
        lastTime = input.time
        if home == nil { home = input.pose }
        let latency = input.device?.commandLatency ?? configuration.actuatorLatency
        let acceleration = min(configuration.maximumAcceleration, input.device?.maximumAcceleration ?? .infinity)
        let stepFloor = input.device?.speedStep ?? 0
        // Where the head will be when this command lands.
        let headThen =
            input.pose + (inFlight.travel(at: input.time.seconds, latency: latency) ?? input.velocity * latency)
        let landing = input.time.seconds + latency
        var wanted = Vector3D()
        if let error = input.angularError {
            searchPhase = nil
            let observed = input.observedAt ?? input.time
            let age = min(max(input.time.seconds(since: observed), 0), 0.3)
            // Where the head was when the frame was taken: from the history, else extrapolated back.
            let then = input.poseAtObservation ?? (input.pose - input.velocity * age)
            Self.observe(&yaw, angle: then.y + error.yaw, at: observed)
            Self.observe(&pitch, angle: then.x + error.pitch, at: observed)
            let laws = (configuration, acceleration, stepFloor, landing)
            wanted.y = Self.follow(&yaw, head: (input.pose.y, headThen.y), gain: configuration.yawGain, laws)
            wanted.x = Self.follow(&pitch, head: (input.pose.x, headThen.x), gain: configuration.pitchGain, laws)
            if let y = yaw.estimate.direction(at: observed.seconds),
                let x = pitch.estimate.direction(at: observed.seconds)
            {
                lastSighting = LostSubjectSearch.Sighting(
                    time: observed.seconds, yaw: y, pitch: x, yawRate: yaw.estimate.rate)
            }
        } else {
            // The estimates stay: a subject missed for a frame or two keeps its rate (each
            // estimate starts again by itself after a longer gap).
            if input.searchWhenLost, configuration.search.enabled, let lastSighting, let home {
                let aim = search.aim(after: lastSighting, at: landing, home: home)
                searchPhase = aim.phase
                let cap = aim.speedLimit ?? configuration.maximumSpeed
                wanted.y = Self.seek(
                    &yaw.engaged, error: aim.yaw - headThen.y, rate: aim.yawRate, gain: configuration.yawGain,
                    cap: cap, (configuration, acceleration, stepFloor))
                wanted.x = Self.seek(
                    &pitch.engaged, error: aim.pitch - headThen.x, rate: 0, gain: configuration.pitchGain,
                    cap: cap, (configuration, acceleration, stepFloor))
            } else {
                yaw.engaged = false
                pitch.engaged = false
                searchPhase = nil
            }
        }
        let c = configuration
        let seen = input.angularError != nil
        func slew(_ from: Double, _ to: Double) -> Double {
            guard dt > 0 else { return to }
            let easing = seen && to == 0 && abs(from) <= c.easeOutBelow
            let step = (easing ? min(acceleration, c.easeOutDeceleration) : acceleration) * dt
            return from + min(max(to - from, -step), step)
        }
        lastCommand = Vector3D(x: slew(lastCommand.x, wanted.x), y: slew(lastCommand.y, wanted.y), z: 0)
        inFlight.record(lastCommand, at: input.time.seconds, horizon: latency)
        return lastCommand
    }

    private static func observe(_ axis: inout Axis, angle: Double, at observed: MonotonicInstant) {
        guard axis.lastObserved != observed else { return }
        axis.lastObserved = observed
        axis.estimate.add(angle: angle, at: observed.seconds)
    }

    /// The rate for one axis following a seen subject.
    private static func follow(
        _ axis: inout Axis, head: (now: Double, then: Double), gain: Double,
        _ laws: (FramingConfiguration, acceleration: Double, stepFloor: Double, landing: Double)
    ) -> Double {
        let (c, acceleration, stepFloor, landing) = laws
        guard let subject = axis.estimate.direction(at: landing) else { return 0 }
        let feedForward = axis.estimate.rate
        // The correction acts on the error from where the head is; the braking limit on the
        // distance left once the head has moved on during the latency.
        let predicted = subject - head.now
        let magnitude = abs(predicted)
        let moving = feedForward != 0
        let band = max(c.deadBand, c.jitterBand * axis.estimate.jitter)
        if moving { axis.followed = true }
        if moving {
            axis.engaged = true
        } else if axis.engaged {
            // A subject that stops near where the head is gets what a still one gets: no
            // correction inside the band (coming back for it would be a reversal and a start).
            // One that turned round and moves away from the head is still followed.
            let away = axis.estimate.recentRate * (predicted < 0 ? -1 : 1)
            let stopped = axis.followed && away < c.motion.minimumRate
            if magnitude < c.settleBand || (stopped && magnitude < band) {
                (axis.engaged, axis.followed) = (false, false)
            }
        } else if magnitude > band {
            axis.engaged = true
        }
        guard axis.engaged else { return 0 }
        var correction = gain * predicted
        // The floor on correction speed finishes a move to a still subject; while following a
        // moving one it would flip the command between rate ± floor every few frames.
        let floor = max(c.minimumCorrectionSpeed, stepFloor)
        if !moving && abs(correction) < floor { correction = floor * (predicted < 0 ? -1 : 1) }
        if magnitude > c.catchUpThreshold {
            correction += gain * (c.catchUpGain - 1) * (predicted - c.catchUpThreshold * (predicted > 0 ? 1 : -1))
        }
        var command = feedForward + correction
        // A head a little ahead of a moving subject waits for it rather than backing up (a
        // reversal); one far off, or behind a subject that turned round, corrects.
        if moving && command * feedForward < 0 && magnitude < band { command = 0 }
        return limited(command, rate: feedForward, error: subject - head.then, c, acceleration)
    }

    /// The rate for one axis heading for an aim that moves at `rate` (the search).
    private static func seek(
        _ engaged: inout Bool, error: Double, rate: Double, gain: Double, cap: Double,
        _ laws: (FramingConfiguration, acceleration: Double, stepFloor: Double)
    ) -> Double {
        let (c, acceleration, stepFloor) = laws
        if rate != 0 || abs(error) > c.deadBand {
            engaged = true
        } else if abs(error) < c.settleBand {
            engaged = false
        }
        guard engaged else { return 0 }
        var correction = gain * error
        let floor = max(c.minimumCorrectionSpeed, stepFloor)
        if rate == 0 && abs(correction) < floor { correction = floor * (error < 0 ? -1 : 1) }
        let command = limited(rate + correction, rate: rate, error: error, c, acceleration)
        return min(max(command, -cap), cap)
    }

    /// Within the law's top speed, and no faster towards the aim than the head can brake from in
    /// the distance left (relative to the aim's own motion): no overshoot from a slow-braking head.
    private static func limited(
        _ command: Double, rate: Double, error: Double, _ c: FramingConfiguration, _ acceleration: Double
    ) -> Double {
        var command = command
        let closing = command - rate
        if closing * error > 0 {
            // A share of the acceleration: the command itself ramps no faster than the head, so
            // the head reaches the braking curve late; the margin absorbs that and speed steps.
            let brakable = (2 * c.brakingShare * acceleration * abs(error)).squareRoot()
            if abs(closing) > brakable { command = rate + brakable * (closing > 0 ? 1 : -1) }
        }
        return min(max(command, -c.maximumSpeed), c.maximumSpeed)
    }
}
