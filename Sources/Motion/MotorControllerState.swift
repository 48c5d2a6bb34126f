import DockCore

/// What `MotorController` decides, without the device: an explicit state and transitions that
/// return the command to send. Pure, so every path (limits, the deadman, a silent device, a
/// halt) is tested with a manual clock and no backend; the controller sends what it returns.
struct MotorControllerState: Sendable {
    enum Mode: Sendable, Equatable {
        /// Commands go through.
        case running
        /// The device stopped answering its position queries: motors stopped, commands refused
        /// until it answers again.
        case deviceSilent
        /// Halted for shutdown at this time: only stops are sent until released.
        case halted(since: MonotonicInstant)
    }

    /// What the device is sent for a transition.
    enum Action: Sendable, Equatable {
        case none
        case send(Vector3D)
    }

    private(set) var mode = Mode.running
    /// The device's name, for the refusal a silent device gets.
    let deviceName: String
    var limits: MotionLimits
    var deadman: Deadman
    var silenceTimeout: Double
    private(set) var lastCommand = Vector3D()
    private(set) var stoppedByDeadman = 0
    private(set) var stoppedBySilence = 0
    private(set) var commandsSent = 0
    private(set) var commandsFailed = 0
    private var fineSpeeds = SpeedStepModulator()
    private(set) var latency = CommandLatencyMeter()

    /// How hard motion is braked near an end of travel: speed ≤ gain × distance to the end.
    static let edgeBrakingGain = 4.0

    init(deviceName: String, limits: MotionLimits, deadmanTimeout: Double, silenceTimeout: Double) {
        self.deviceName = deviceName
        self.limits = limits
        deadman = Deadman(timeout: deadmanTimeout)
        self.silenceTimeout = silenceTimeout
    }

    var haltedAt: MonotonicInstant? {
        if case .halted(let since) = mode { since } else { nil }
    }

    /// A velocity asked for, at the pose the device reports: the command to send (limited, as
    /// a duty cycle of the device's speed step where it is finer), or why it is refused. A
    /// device found silent is sent a stop even though the command is refused.
    mutating func command(
        _ velocity: Vector3D, motion: MotionState, silence: Double?, speedStep: Double?, at time: MonotonicInstant
    ) -> (action: Action, result: Result<(limited: Vector3D, sent: Vector3D), MotorCommandError>) {
        guard velocity.isFinite else { return (.none, .failure(.nonFinite(velocity))) }
        latency.reported(motion)
        if haltedAt != nil { return (.none, .failure(.halted)) }
        let (silenceAction, silent) = noteSilence(silence, at: time)
        if let silent { return (silenceAction, .failure(.deviceSilent(deviceName, seconds: silent))) }
        let pose = motion.angularPositions
        let limited = Vector3D(
            x: Self.limit(velocity.x, position: pose.x, axis: limits.pitch),
            y: Self.limit(velocity.y, position: pose.y, axis: limits.yaw),
            z: Self.limit(velocity.z, position: pose.z, axis: limits.roll))
        let sent = fineSpeeds.output(for: limited, step: speedStep, at: time)
        return (.send(sent), .success((limited, sent)))
    }

    /// The device took the command `command` decided.
    mutating func commandSent(_ sent: Vector3D, limited: Vector3D, at time: MonotonicInstant) {
        commandsSent += 1
        latency.sent(sent, at: time)
        deadman.feed(at: time)
        lastCommand = limited
    }

    /// The device's link refused it.
    mutating func commandFailed() { commandsFailed += 1 }

    /// A control tick: stops the motors when the device has fallen silent, or when commands
    /// have stopped for longer than the deadman allows. `stoppedByDeadman` is true when the
    /// deadman stopped them on this tick.
    mutating func service(silence: Double?, at time: MonotonicInstant) -> (action: Action, stoppedByDeadman: Bool) {
        if haltedAt == nil {
            let (action, silent) = noteSilence(silence, at: time)
            if silent != nil { return (action, false) }
        }
        guard deadman.isExpired(at: time), lastCommand != Vector3D() else { return (.none, false) }
        stopped(at: time)
        stoppedByDeadman += 1
        return (.send(Vector3D()), true)
    }

    /// Stops all axes and refuses every later command until released.
    mutating func halt(at time: MonotonicInstant) -> Action {
        lastCommand = Vector3D()
        if haltedAt == nil { mode = .halted(since: time) }
        return .send(Vector3D())
    }

    /// Commands go through again (one deliberate move at the end of a run).
    mutating func releaseHalt() {
        if haltedAt != nil { mode = .running }
    }

    /// Stops all axes now (shutdown, errors, tracking off); commands still go through later.
    mutating func stop(at time: MonotonicInstant) -> Action {
        stopped(at: time)
        return .send(Vector3D())
    }

    /// Notes whether the device has fallen silent or come back: on falling silent, the motors
    /// are stopped (the stop may not arrive; it is still the safe thing to send). Returns the
    /// silence in seconds while it lasts.
    private mutating func noteSilence(_ silence: Double?, at time: MonotonicInstant) -> (Action, Double?) {
        guard let silence, silence > silenceTimeout else {
            if mode == .deviceSilent { mode = .running }
            return (.none, nil)
        }
        guard mode != .deviceSilent else { return (.none, silence) }
        mode = .deviceSilent
        stoppedBySilence += 1
        stopped(at: time)
        return (.send(Vector3D()), silence)
    }

    private mutating func stopped(at time: MonotonicInstant) {
        latency.sent(Vector3D(), at: time)
        lastCommand = Vector3D()
    }

    static func limit(_ v: Double, position: Double, axis: AxisLimit?) -> Double {
        guard let axis else { return 0 }
        var v = min(max(v, -axis.maximumSpeed), axis.maximumSpeed)
        let room = v > 0 ? axis.positionRange.upperBound - position : position - axis.positionRange.lowerBound
        v = v > 0 ? min(v, max(0, room) * edgeBrakingGain) : max(v, -max(0, room) * edgeBrakingGain)
        return v
    }
}
