import DockCore
import Foundation

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
///
/// The decisions are `MotorControllerState`'s, a pure state machine; this shell reads the
/// device, asks the state what to send and sends it. Device I/O happens outside the state's
/// lock, so the getters never wait on a serial write; one I/O lock keeps the sends in the order
/// they were decided (a halt from the signal thread is never overtaken by a command decided
/// before it).
public final class MotorController: Sendable {
    public let backend: any MotorBackend
    private let state: Protected<MotorControllerState>
    /// Held across read–decide–send (taken before `state`, never while holding it). A plain
    /// lock: a `Protected` of nothing would hand ThreadSanitizer a zero-sized value to watch.
    private let io = NSLock()

    /// How hard motion is braked near an end of travel: speed ≤ gain × distance to the end.
    static var edgeBrakingGain: Double { MotorControllerState.edgeBrakingGain }

    /// A device that answered before and then leaves its position queries unanswered this long
    /// is treated as gone: motors stopped, commands refused until it answers again.
    public let silenceTimeout: Double

    public init(backend: any MotorBackend, deadmanTimeout: Double = 0.2, silenceTimeout: Double = 1.0) {
        self.backend = backend
        self.silenceTimeout = silenceTimeout
        state = Protected(
            MotorControllerState(
                deviceName: backend.name, limits: backend.capabilities.limits, deadmanTimeout: deadmanTimeout,
                silenceTimeout: silenceTimeout))
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
    public var isDeviceSilent: Bool { state.withLock { $0.mode == .deviceSilent } }
    /// Velocity commands the device took, and those its link refused (write errors).
    public var commandCounts: (sent: Int, failed: Int) { state.withLock { ($0.commandsSent, $0.commandsFailed) } }

    /// Sends a velocity (rad/s) after applying limits; returns what was sent. `motion` is the
    /// head's reading the caller took at `time` (a control tick reads it once for all its
    /// steps); without it the device is read here.
    @discardableResult
    public func command(
        _ velocity: Vector3D, motion reading: MotionState? = nil, at time: MonotonicInstant
    ) throws(MotorCommandError) -> Vector3D {
        guard velocity.isFinite else { throw .nonFinite(velocity) }
        return try serialized { () throws(MotorCommandError) -> Vector3D in
            // Asked even when the command is refused: a silent head's answer is what lets it through again.
            backend.pollFeedback(at: time)
            let motion = reading ?? backend.motionState(at: time)
            let silence = backend.feedbackSilence(at: time)
            let step = backend.capabilities.speedStep
            let decision = state.withLock {
                $0.command(velocity, motion: motion, silence: silence, speedStep: step, at: time)
            }
            switch decision.result {
            case .failure(let error):
                perform(decision.action, at: time)
                throw error
            case .success(let command):
                do { try backend.setVelocity(command.sent, at: time) } catch {
                    state.withLock { $0.commandFailed() }
                    throw .backend("\(error)")
                }
                state.withLock { $0.commandSent(command.sent, limited: command.limited, at: time) }
                return command.limited
            }
        }
    }

    /// Call often (every control tick): asks the device for its pose when that is due and stops
    /// the motors once the deadman expires. Returns true when it stopped them on this call.
    @discardableResult
    public func service(at time: MonotonicInstant) -> Bool {
        serialized {
            backend.pollFeedback(at: time)
            let silence = backend.feedbackSilence(at: time)
            let decision = state.withLock { $0.service(silence: silence, at: time) }
            perform(decision.action, at: time)
            return decision.stoppedByDeadman
        }
    }

    /// Asks the device for its pose when that is due, without the deadman's watch: for ticks
    /// on which something else owns the motion (a move or an animation in progress).
    public func pollFeedback(at time: MonotonicInstant) {
        serialized { backend.pollFeedback(at: time) }
    }

    /// Stops all axes now and refuses every later command: the safe state at shutdown, callable
    /// from any thread (the signal thread calls it the moment a stop is asked for).
    public func halt(at time: MonotonicInstant) {
        serialized { perform(state.withLock { $0.halt(at: time) }, at: time) }
    }

    /// Lets commands through again after `halt`, for one deliberate move at the end of a run
    /// (parking at a preset), which halts again when it is done.
    public func releaseHalt() { state.withLock { $0.releaseHalt() } }

    /// When `halt` first stopped the motors.
    public var haltedAt: MonotonicInstant? { state.withLock { $0.haltedAt } }

    /// Stops all axes now (shutdown, errors, tracking off).
    public func stop(at time: MonotonicInstant) {
        serialized { perform(state.withLock { $0.stop(at: time) }, at: time) }
    }

    static func limit(_ v: Double, position: Double, axis: AxisLimit?) -> Double {
        MotorControllerState.limit(v, position: position, axis: axis)
    }

    /// Runs `body` holding the I/O lock: one read–decide–send at a time, in order.
    private func serialized<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        io.lock()
        defer { io.unlock() }
        return try body()
    }

    /// A stop or a command the state decided on; a stop that fails is not retried (the device
    /// is gone or going; its own timeout, where it has one, stops it).
    private func perform(_ action: MotorControllerState.Action, at time: MonotonicInstant) {
        guard case .send(let velocity) = action else { return }
        try? backend.setVelocity(velocity, at: time)
    }
}
