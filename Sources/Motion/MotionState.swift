import DockCore

/// Where the axes are and how fast they turn (radians, rad/s), at a monotonic time.
public struct MotionState: Sendable, Hashable {
    public var angularPositions: Vector3D
    public var angularVelocities: Vector3D
    public var time: MonotonicInstant
    /// True when the device cannot report its pose and these are the commanded values.
    public var isCommandedOnly: Bool

    public init(
        angularPositions: Vector3D, angularVelocities: Vector3D, time: MonotonicInstant, isCommandedOnly: Bool = false
    ) {
        self.angularPositions = angularPositions
        self.angularVelocities = angularVelocities
        self.time = time
        self.isCommandedOnly = isCommandedOnly
    }
}

/// What a motor device can do.
public struct MotorCapabilities: Sendable, Hashable {
    /// The device's own limits; nil axes do not exist.
    public var limits: MotionLimits
    public var hasPositionFeedback: Bool
    /// The smallest change of speed the device can make (rad/s); nil = continuous.
    public var speedStep: Double?
    /// Seconds from a command leaving the host to the axes starting to change speed: the
    /// control law predicts where subject and head will be when its command lands.
    public var commandLatency: Double
    /// How fast the axes can change speed (rad/s²); nil = not known (the law's own cap applies).
    public var maximumAcceleration: Double?
    /// Whether the device reports its battery's voltage (`MotorBackend.batteryVolts`).
    public var reportsBattery = false

    public init(
        limits: MotionLimits, hasPositionFeedback: Bool, speedStep: Double? = nil,
        commandLatency: Double = MotorCapabilities.typicalLatency, maximumAcceleration: Double? = nil
    ) {
        self.limits = limits
        self.hasPositionFeedback = hasPositionFeedback
        self.speedStep = speedStep
        self.commandLatency = commandLatency
        self.maximumAcceleration = maximumAcceleration
    }

    /// A serial gimbal's command latency when nothing better is known (s).
    public static let typicalLatency = 0.04
}

/// A motor device: a simulated gimbal, a serial gimbal, a PTZ camera. Commands arrive already
/// checked against limits by `MotorController`; a backend only carries them out.
public protocol MotorBackend: AnyObject, Sendable {
    var name: String { get }
    var capabilities: MotorCapabilities { get }
    /// Turn at these rates (rad/s) from now on.
    func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws
    /// What the device last reported (or was last told). Reading it sends nothing.
    func motionState(at time: MonotonicInstant) -> MotionState
    /// Asks a device with polled position feedback for its pose when a query is due; the
    /// controller calls it on every tick. Devices that report by themselves ignore it.
    func pollFeedback(at time: MonotonicInstant)
    /// Seconds a device with position feedback has left a query unanswered after answering
    /// before; nil while it answers (and for devices without feedback).
    func feedbackSilence(at time: MonotonicInstant) -> Double?
    /// The battery's voltage as the device last reported it; nil from a device without one.
    var batteryVolts: Double? { get }
}

extension MotorBackend {
    public var batteryVolts: Double? { nil }
    public func pollFeedback(at time: MonotonicInstant) {}
    public func feedbackSilence(at time: MonotonicInstant) -> Double? { nil }
}
