import Foundation
import DockCore

public struct FramingConfiguration: Sendable, Hashable {
    /// A subject whose angular error stays inside this band causes no motion (radians).
    public var deadBand = 2.0 * .pi / 180
    /// Once moving, the axis keeps correcting until the error is inside this band.
    public var settleBand = 0.6 * .pi / 180
    /// Proportional gains, rad/s of command per radian of error, per axis.
    public var yawGain = 5.0
    public var pitchGain = 5.0
    /// Larger errors than this get extra gain to catch up (radians).
    public var catchUpThreshold = 12.0 * .pi / 180
    public var catchUpGain = 1.5
    /// Subject motion slower than this (rad/s) is treated as noise, not fed forward.
    public var feedForwardThreshold = 2.5 * .pi / 180
    /// Smoothing of the subject's estimated angular rate per new observation (0…1).
    public var rateSmoothing = 0.25
    /// Apparent subject motion faster than this (rad/s) is a jump (a new subject, a detector
    /// switching faces), not motion to follow: it resets the rate estimate.
    public var maximumSubjectRate = 1.0
    /// Command-to-motion latency of the motors, added to the frame's age when predicting (s).
    public var actuatorLatency = 0.04
    /// While correcting towards a still subject, never slower than this (rad/s): the last degree
    /// is not crept over.
    public var minimumCorrectionSpeed = 4.0 * .pi / 180
    /// The controller's own caps, below the device's.
    public var maximumSpeed = 1.5
    public var maximumAcceleration = 8.0

    public init() {}
}

/// OpenDock's control law. The subject's offset from the framing point becomes an angle
/// through the intrinsics; its direction at capture time (the pose then plus that angle) is
/// tracked over observations to estimate how fast the subject moves. The command is that rate
/// (feed-forward, so a walking subject is not trailed) plus a proportional correction of the
/// error predicted to the moment the command takes effect (frame age + actuator latency). A dead
/// band with hysteresis keeps a still subject from ever starting the motors; large errors get a
/// catch-up boost; commands are slew-limited.
public struct FramingController: ControlLaw {
    public let name = "dock"
    public let configuration: FramingConfiguration

    private struct Axis: Sendable {
        var moving = false
        var lastAngle: Double?
        var lastObserved: MonotonicInstant?
        var rate = 0.0
    }
    private var yaw = Axis()
    private var pitch = Axis()
    private var lastCommand = Vector3D()
    private var lastTime: MonotonicInstant?

    public init(configuration: FramingConfiguration = FramingConfiguration()) {
        self.configuration = configuration
    }

    public mutating func update(_ input: ControlInput) -> Vector3D {
        let dt = lastTime.map { min(max(input.time.seconds(since: $0), 0), 0.2) } ?? 0
        lastTime = input.time
        var wanted = Vector3D()
        if let error = input.angularError {
            let observed = input.observedAt ?? input.time
            let age = min(max(input.time.seconds(since: observed), 0), 0.3)
            // Where the head was when the frame was taken: from the history, else extrapolated back.
            let then = input.poseAtObservation ?? (input.pose - input.velocity * age)
            wanted.y = Self.rate(&yaw, error: error.yaw, position: input.pose.y, then: then.y, age: age,
                                 observed: observed, gain: configuration.yawGain, configuration)
            wanted.x = Self.rate(&pitch, error: error.pitch, position: input.pose.x, then: then.x, age: age,
                                 observed: observed, gain: configuration.pitchGain, configuration)
        } else {
            yaw = Axis()
            pitch = Axis()
        }
        let step = configuration.maximumAcceleration * dt
        func slew(_ from: Double, _ to: Double) -> Double { dt == 0 ? to : from + min(max(to - from, -step), step) }
        lastCommand = Vector3D(x: slew(lastCommand.x, wanted.x), y: slew(lastCommand.y, wanted.y), z: 0)
        return lastCommand
    }

    private static func rate(_ axis: inout Axis, error: Double, position: Double, then: Double, age: Double,
                             observed: MonotonicInstant, gain: Double, _ c: FramingConfiguration) -> Double {
        // Where the subject was when the frame was taken, in the head's own angles.
        let angle = then + error
        if axis.lastObserved != observed {
            if let last = axis.lastAngle, let then = axis.lastObserved {
                let dt = observed.seconds(since: then)
                if dt > 0.005 && dt < 0.5 {
                    let raw = (angle - last) / dt
                    axis.rate = abs(raw) > c.maximumSubjectRate ? 0 : axis.rate + c.rateSmoothing * (raw - axis.rate)
                }
            }
            axis.lastAngle = angle
            axis.lastObserved = observed
        }
        let feedForward = abs(axis.rate) > c.feedForwardThreshold ? axis.rate : 0
        // The error when this command takes effect: the subject has moved on since its frame.
        let predicted = angle + feedForward * (age + c.actuatorLatency) - position
        let magnitude = abs(predicted)
        if axis.moving {
            if magnitude < c.settleBand && feedForward == 0 { axis.moving = false }
        } else if magnitude > c.deadBand {
            axis.moving = true
        }
        guard axis.moving else { return 0 }
        var correction = gain * predicted
        // The floor on correction speed finishes a move to a still subject; while following a
        // moving one it would flip the command between rate ± floor every few frames.
        if feedForward == 0 && abs(correction) < c.minimumCorrectionSpeed {
            correction = c.minimumCorrectionSpeed * (predicted < 0 ? -1 : 1)
        }
        var command = feedForward + correction
        if magnitude > c.catchUpThreshold {
            command += gain * (c.catchUpGain - 1) * (predicted - c.catchUpThreshold * (predicted > 0 ? 1 : -1))
        }
        return min(max(command, -c.maximumSpeed), c.maximumSpeed)
    }
}
