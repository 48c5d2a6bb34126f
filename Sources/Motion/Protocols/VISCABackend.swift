import DockCore
import Foundation

/// How a VISCA camera's units map to angles; models differ, so these are configuration.
public struct VISCAModel: Sendable, Hashable {
    /// Pan speed at step 0x18 and tilt speed at step 0x17 (rad/s); steps are linear below.
    public var maximumPanSpeed = 100 * Double.pi / 180
    public var maximumTiltSpeed = 90 * Double.pi / 180
    /// Angle of one position unit (radians), for the position inquiry.
    public var radiansPerPositionUnit = 0.075 * Double.pi / 180
    public var address: UInt8 = 1
    /// The zoom position at the tele end of the optical range (0 is the widest), and the
    /// optical zoom there. Between them the factor is taken as growing evenly in log terms, as
    /// a zoom drive that steps its focal length by equal ratios does; real lenses differ by a
    /// few percent, which the zoom's hysteresis absorbs.
    public var zoomTelePosition: UInt16 = 0x4000
    public var maximumZoom = 12.0

    public init() {}

    /// The zoom factor (1 = widest) at a zoom position.
    public func zoomFactor(position: UInt16) -> Double {
        let share = min(max(Double(position) / Double(max(zoomTelePosition, 1)), 0), 1)
        return pow(maximumZoom, share)
    }

    /// The zoom position for a factor, clamped to the optical range.
    public func zoomPosition(factor: Double) -> UInt16 {
        guard maximumZoom > 1 else { return 0 }
        let share = min(max(log(max(factor, 1)) / log(maximumZoom), 0), 1)
        return UInt16((share * Double(zoomTelePosition)).rounded())
    }
}

/// A VISCA PTZ camera over serial, UDP (VISCA over IP) or TCP: pan-tilt drive in speed steps,
/// the pose from the position inquiry every 100 ms, replies (ACK, completion, errors) counted.
/// VISCA has no device-side command timeout: the host deadman is the only guard.
public final class VISCABackend: MotorBackend {
    public let name: String
    public let capabilities: MotorCapabilities
    public let model: VISCAModel
    private let runner: LinkRunner
    private let clock: any MonotonicClock

    private struct State: Sendable {
        var decoder = VISCADecoder()
        var version: [UInt8]?
        var feedback = PolledFeedback()
        var lastDrive: [UInt8]?
        var acks = 0, completions = 0
        var errors: [String] = []
        /// The zoom: the position last reported, whether it is polled, inquiries unanswered.
        var zoomPosition: UInt16?
        var zoomPolled = false
        var zoomInquiries = 0
        var zoomQueriedAt: MonotonicInstant?
    }
    private let state: Protected<State>

    /// Connects and checks the camera answers the version inquiry within two seconds.
    public init(
        name: String, model: VISCAModel = VISCAModel(), clock: any MonotonicClock = SystemMonotonicClock(),
        open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
        onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }
    ) throws(LinkError) {
        self.name = name
        self.model = model
        self.clock = clock
        let state = Protected(State())
        self.state = state
        runner = try LinkRunner(
            name: name, open: open,
            onBytes: { bytes in
                state.withLock { s in
                    for message in s.decoder.feed(bytes) { Self.handle(message, &s, model: model, clock: clock) }
                }
            }, onEvent: onEvent)
        let yaw = try? AxisLimit(
            positionRange: -170 * Double.pi / 180..<170 * Double.pi / 180, maximumSpeed: model.maximumPanSpeed)
        let pitch = try? AxisLimit(
            positionRange: -90 * Double.pi / 180..<30 * Double.pi / 180, maximumSpeed: model.maximumTiltSpeed)
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: true,
            speedStep: model.maximumPanSpeed / Double(VISCA.maximumPanSpeed), commandLatency: VISCA.typicalLatency)
        try runner.handshake(VISCA.versionInquiry(address: model.address), what: "the VISCA version inquiry") {
            state.withLock { $0.version != nil }
        }
    }

    deinit { runner.close() }

    public func close() { runner.close() }
    public var isConnected: Bool { runner.isConnected }
    public var replies: (acks: Int, completions: Int, errors: [String]) {
        state.withLock { ($0.acks, $0.completions, $0.errors) }
    }
    public var decoderRejections: (skippedBytes: Int, droppedMessages: Int) {
        state.withLock { ($0.decoder.skippedBytes, $0.decoder.droppedMessages) }
    }

    /// Speed steps for a rate: 0 stops, otherwise 1…maximum, nearest.
    static func step(_ rate: Double, maximum: Double, steps: UInt8) -> UInt8 {
        UInt8(min(Double(steps), max(0, (abs(rate) / maximum * Double(steps)).rounded())))
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let pan = Self.step(velocity.y, maximum: model.maximumPanSpeed, steps: VISCA.maximumPanSpeed)
        let tilt = Self.step(velocity.x, maximum: model.maximumTiltSpeed, steps: VISCA.maximumTiltSpeed)
        // VISCA tilt "up" is the head's negative pitch.
        let drive = VISCA.drive(
            address: model.address, panSpeed: max(pan, 1), tiltSpeed: max(tilt, 1),
            pan: pan == 0 ? .stop : (velocity.y > 0 ? .right : .left),
            tilt: tilt == 0 ? .stop : (velocity.x > 0 ? .down : .up))
        let quantised = Vector3D(
            x: Double(tilt) / Double(VISCA.maximumTiltSpeed) * model.maximumTiltSpeed * (velocity.x < 0 ? -1 : 1),
            y: Double(pan) / Double(VISCA.maximumPanSpeed) * model.maximumPanSpeed * (velocity.y < 0 ? -1 : 1), z: 0)
        let changed = state.withLock { s -> Bool in
            s.feedback.commanded = quantised
            defer { s.lastDrive = drive }
            return s.lastDrive != drive
        }
        // Only changes are sent: a camera's command buffer holds two commands.
        if changed { try runner.send(drive) }
        pollFeedback(at: time)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { $0.feedback.motionState(at: time) }
    }

    public func feedbackSilence(at time: MonotonicInstant) -> Double? {
        state.withLock { $0.feedback.silence(at: time) }
    }

    public func pollFeedback(at time: MonotonicInstant) {
        if state.withLock({ $0.feedback.queryDue(at: time, interval: 0.1) }) {
            try? runner.send(VISCA.positionInquiry(address: model.address))
        }
        let zoomDue = state.withLock { s -> Bool in
            guard s.zoomPolled, s.zoomQueriedAt.map({ time.seconds(since: $0) >= 0.1 }) ?? true else { return false }
            s.zoomQueriedAt = time
            return true
        }
        if zoomDue { askZoomPosition() }
    }

    /// The camera's optical zoom, when it answers the zoom position inquiry within `timeout`;
    /// from then on the zoom position is polled with the pose. Nil for a camera without zoom.
    public func zoomDrive(timeout: Double = 1) -> VISCAZoom? {
        askZoomPosition()
        guard waitFor(seconds: timeout, until: { zoomPosition != nil }) else { return nil }
        state.withLock { $0.zoomPolled = true }
        return VISCAZoom(backend: self)
    }

    /// The zoom position last reported.
    public var zoomPosition: UInt16? { state.withLock { $0.zoomPosition } }

    /// Sends zoom direct to the position for `factor`.
    func zoom(toPosition position: UInt16) throws {
        try runner.send(VISCA.zoomDirect(address: model.address, position: position))
    }

    private func askZoomPosition() {
        state.withLock { $0.zoomInquiries += 1 }
        try? runner.send(VISCA.zoomPositionInquiry(address: model.address))
    }

    private static func handle(_ message: [UInt8], _ s: inout State, model: VISCAModel, clock: any MonotonicClock) {
        guard let reply = VISCA.reply(message) else { return }
        switch reply {
        case .ack: s.acks += 1
        case .completion: s.completions += 1
        case .error: s.errors.append(reply.errorDescription ?? "error")
        case .position(let pan, let tilt):
            s.feedback.report(
                Vector3D(
                    x: -Double(tilt) * model.radiansPerPositionUnit, y: Double(pan) * model.radiansPerPositionUnit, z: 0
                ),
                at: clock.now)
        case .inquiry(let bytes) where bytes.count == 4 && s.zoomInquiries > 0:
            // Only the zoom inquiry is answered with four nibbles among those sent.
            s.zoomInquiries -= 1
            s.zoomPosition = UInt16(bitPattern: VISCA.value(nibbles: bytes[...]))
        case .inquiry(let bytes): if s.version == nil { s.version = bytes }
        }
    }
}
