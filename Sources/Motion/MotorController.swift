import DockCore

/// Why a motor command was refused.
public enum MotorCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    case nonFinite(Vector3D)
    case backend(String)
    /// The device stopped answering its position queries: the motors were told to stop.
    case deviceSilent(String, seconds: Double)
    /// The controller was halted (shutdown): only stops are sent from now on.
    case halted

    public var description: String {
        switch self {
        case .nonFinite(let v): "refused a non-finite velocity \(v)"
        case .backend(let message): "motor backend failed: \(message)"
        case .halted: "the motors are halted for shutdown"
        case .deviceSilent(let name, let seconds):
            "motor device \(name) has not answered for \(String(format: "%.1f", seconds)) s: motors stopped; "
                + "check its power and cable (commands resume when it answers)"
        }
    }
}

/// The one place limits are enforced and the deadman lives. Every command to a backend passes
/// here: non-finite commands are refused, speeds are clamped to the axis limits, motion toward
/// an end of travel slows to a stop at the limit, and when commands stop for longer than the
/// deadman timeout `service(at:)` stops the motors; a device that stops answering its position
/// queries mid-run is stopped and refused until it answers again. Speeds below a device's
/// slowest step are sent as a duty cycle of that step (`SpeedStepModulator`).
public final class MotorController: Sendable {
    public let backend: any MotorBackend
    private struct State {
        var limits: MotionLimits
        var deadman: Deadman
        var lastCommand = Vector3D()
        var stoppedByDeadman = 0
        var silent = false
        var stoppedBySilence = 0
        var haltedAt: MonotonicInstant?
        var commandsSent = 0
        var commandsFailed = 0
        var fineSpeeds = SpeedStepModulator()
        var latency = CommandLatencyMeter()
    }
    private let state: Protected<State>

    /// How hard motion is braked near an end of travel: speed ≤ gain × distance to the end.
    static let edgeBrakingGain = 4.0

    /// A device that answered before and then leaves its position queries unanswered this long
    /// is treated as gone: motors stopped, commands refused until it answers again.
    public let silenceTimeout: Double

    public init(backend: any MotorBackend, deadmanTimeout: Double = 0.2, silenceTimeout: Double = 1.0) {
        self.backend = backend
        self.silenceTimeout = silenceTimeout
        state = Protected(State(limits: backend.capabilities.limits, deadman: Deadman(timeout: deadmanTimeout)))
    }

    public var limits: MotionLimits { state.withLock { $0.limits } }
    /// The device's capabilities, with its command latency as measured in use from its starts
    /// from rest (`CommandLatencyMeter`).
    public var capabilities: MotorCapabilities {
        var capabilities = backend.capabilities
        capabilities.commandLatency = state.withLock { $0.latency.latency(declared: capabilities.commandLatency) }
        return capabilities
    }
    /// The command latency measured so far (s); nil before the first start from rest.
    public var measuredLatency: Double? { state.withLock { $0.latency.estimate } }
    public var latencySamples: Int { state.withLock { $0.latency.samples.count } }
    public func setLimits(_ limits: MotionLimits) { state.withLock { $0.limits = limits } }
    public var lastCommand: Vector3D { state.withLock { $0.lastCommand } }
    /// How many times the deadman has stopped the motors.
    public var deadmanStops: Int { state.withLock { $0.stoppedByDeadman } }
    /// How many times the device fell silent (and the motors were stopped for it).
    public var silenceStops: Int { state.withLock { $0.stoppedBySilence } }
    /// The device is silent now: commands are refused.
    public var isDeviceSilent: Bool { state.withLock { $0.silent } }
    /// Velocity commands the device took, and those its link refused (write errors).
    public var commandCounts: (sent: Int, failed: Int) { state.withLock { ($0.commandsSent, $0.commandsFailed) } }

    /// Notes whether the device has fallen silent or come back; on falling silent, stops the
    /// motors (the command may not arrive; it is still the safe thing to send). Returns the
    /// silence in seconds while it lasts.
    private func checkSilence(_ state: inout State, at time: MonotonicInstant) -> Double? {
        guard let silence = backend.feedbackSilence(at: time), silence > silenceTimeout else {
            state.silent = false
            return nil
        }
        if !state.silent {
            state.silent = true
            state.stoppedBySilence += 1
            try? backend.setVelocity(Vector3D(), at: time)
            state.latency.sent(Vector3D(), at: time)
            state.lastCommand = Vector3D()
        }
        return silence
    }

    /// Sends a velocity (rad/s) after applying limits; returns what was sent.
    @discardableResult
    public func command(_ velocity: Vector3D, at time: MonotonicInstant) throws(MotorCommandError) -> Vector3D {
        guard velocity.isFinite else { throw .nonFinite(velocity) }
        let motion = backend.motionState(at: time)
        let pose = motion.angularPositions
        return try state.withLock { state throws(MotorCommandError) -> Vector3D in
            state.latency.reported(motion)
            if state.haltedAt != nil { throw .halted }
            if let silence = checkSilence(&state, at: time) { throw .deviceSilent(backend.name, seconds: silence) }
            let limited = Vector3D(
                x: Self.limit(velocity.x, position: pose.x, axis: state.limits.pitch),
                y: Self.limit(velocity.y, position: pose.y, axis: state.limits.yaw),
                z: Self.limit(velocity.z, position: pose.z, axis: state.limits.roll))
            let sent = state.fineSpeeds.output(for: limited, step: backend.capabilities.speedStep, at: time)
            do { try backend.setVelocity(sent, at: time) } catch {
                state.commandsFailed += 1
                throw .backend("\(error)")
            }
            state.commandsSent += 1
            state.latency.sent(sent, at: time)
            state.deadman.feed(at: time)
            state.lastCommand = limited
            return limited
        }
    }

    /// Call often (every control tick): stops the motors once the deadman expires.
    /// Returns true when it stopped them on this call.
    @discardableResult
    public func service(at time: MonotonicInstant) -> Bool {
        state.withLock { state in
            if checkSilence(&state, at: time) != nil { return false }
            guard state.deadman.isExpired(at: time), state.lastCommand != Vector3D() else { return false }
            try? backend.setVelocity(Vector3D(), at: time)
            state.latency.sent(Vector3D(), at: time)
            state.lastCommand = Vector3D()
            state.stoppedByDeadman += 1
            return true
        }
    }

    /// Stops all axes now and refuses every later command: the safe state at shutdown, callable
    /// from any thread (the signal thread calls it the moment a stop is asked for).
    public func halt(at time: MonotonicInstant) {
        state.withLock { state in
            try? backend.setVelocity(Vector3D(), at: time)
            state.lastCommand = Vector3D()
            if state.haltedAt == nil { state.haltedAt = time }
        }
    }

    /// Lets commands through again after `halt`, for one deliberate move at the end of a run
    /// (parking at a preset), which halts again when it is done.
    public func releaseHalt() { state.withLock { $0.haltedAt = nil } }

    /// When `halt` first stopped the motors.
    public var haltedAt: MonotonicInstant? { state.withLock { $0.haltedAt } }

    /// Stops all axes now (shutdown, errors, tracking off).
    public func stop(at time: MonotonicInstant) {
        state.withLock { state in
            try? backend.setVelocity(Vector3D(), at: time)
            state.latency.sent(Vector3D(), at: time)
            state.lastCommand = Vector3D()
        }
    }

    static func limit(_ v: Double, position: Double, axis: AxisLimit?) -> Double {
        guard let axis else { return 0 }
        var v = min(max(v, -axis.maximumSpeed), axis.maximumSpeed)
        let room = v > 0 ? axis.positionRange.upperBound - position : position - axis.positionRange.lowerBound
        v = v > 0 ? min(v, max(0, room) * edgeBrakingGain) : max(v, -max(0, room) * edgeBrakingGain)
        return v
    }
}
