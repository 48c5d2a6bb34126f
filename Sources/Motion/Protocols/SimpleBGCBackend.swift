import DockCore
import Foundation

/// A SimpleBGC (BaseCam) gimbal controller over a serial link: speed commands with CMD_CONTROL,
/// the pose from CMD_REALTIME_DATA_3 (requested every 50 ms), a device-side timeout set with
/// CMD_CONTROL_CONFIG so the gimbal stops obeying if the host goes silent, and a link that is
/// reopened when it returns.
public final class SimpleBGCBackend: MotorBackend {
    public let name: String
    public let capabilities: MotorCapabilities
    public let version: SimpleBGC.Version
    private let runner: LinkRunner
    private let clock: any MonotonicClock

    private struct State: Sendable {
        var decoder: SimpleBGCDecoder
        var boardInfo: [UInt8]?
        var feedback = PolledFeedback()
        var volts: Double?
        var confirms = 0
        var deviceErrors = 0
    }
    private let state: Protected<State>

    /// Connects and checks the board answers CMD_BOARD_INFO within two seconds.
    public init(
        name: String, version: SimpleBGC.Version = .v2, deviceTimeout: Double = 0.5,
        clock: any MonotonicClock = SystemMonotonicClock(),
        open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
        onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }
    ) throws(LinkError) {
        self.name = name
        self.version = version
        self.clock = clock
        let state = Protected(State(decoder: SimpleBGCDecoder(version: version)))
        self.state = state
        runner = try LinkRunner(
            name: name, open: open,
            onBytes: { bytes in
                state.withLock { s in
                    for frame in s.decoder.feed(bytes) { Self.handle(frame, &s, clock: clock) }
                }
            }, onEvent: onEvent)
        let yaw = try? AxisLimit(positionRange: -Double.pi..<Double.pi, maximumSpeed: 3)
        let pitch = try? AxisLimit(positionRange: -1.5..<1.5, maximumSpeed: 3)
        var capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: true,
            speedStep: SimpleBGC.degreesPerSecondPerSpeedUnit * Double.pi / 180,
            commandLatency: SimpleBGC.typicalLatency)
        // Its realtime data carries the battery's voltage.
        capabilities.reportsBattery = true
        self.capabilities = capabilities
        try runner.handshake(
            SimpleBGC.encode(
                SimpleBGC.Frame(command: SimpleBGC.Command.boardInfo.rawValue, payload: []), version: version),
            what: "CMD_BOARD_INFO"
        ) { state.withLock { $0.boardInfo != nil } }
        let timeout = UInt16(clamping: Int(deviceTimeout * 1000))
        do {
            try runner.send(SimpleBGC.encode(SimpleBGC.controlConfig(timeoutMilliseconds: timeout), version: version))
        } catch {
            runner.close()
            throw error
        }
    }

    deinit { runner.close() }

    public func close() { runner.close() }

    /// Sends any frame (for commands this backend has no method for).
    public func send(_ frame: SimpleBGC.Frame) throws(LinkError) {
        try runner.send(SimpleBGC.encode(frame, version: version))
    }

    public var isConnected: Bool { runner.isConnected }
    public var batteryVolts: Double? { state.withLock { $0.volts } }
    /// CMD_CONFIRM answers and CMD_ERROR answers received.
    public var confirmations: Int { state.withLock { $0.confirms } }
    public var deviceErrors: Int { state.withLock { $0.deviceErrors } }
    /// Bytes skipped and frames rejected by the decoder (garbage, bad checksums).
    public var decoderRejections: (skippedBytes: Int, badFrames: Int) {
        state.withLock { ($0.decoder.skippedBytes, $0.decoder.badFrames) }
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let degrees = 180 / Double.pi
        state.withLock { $0.feedback.commanded = velocity }
        try runner.send(
            SimpleBGC.encode(
                SimpleBGC.speedControl(
                    pitchDegreesPerSecond: velocity.x * degrees,
                    yawDegreesPerSecond: velocity.y * degrees), version: version))
        pollFeedback(at: time)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { $0.feedback.motionState(at: time) }
    }

    public func feedbackSilence(at time: MonotonicInstant) -> Double? {
        state.withLock { $0.feedback.silence(at: time) }
    }

    public func pollFeedback(at time: MonotonicInstant) {
        if state.withLock({ $0.feedback.queryDue(at: time, interval: 0.05) }) {
            try? runner.send(
                SimpleBGC.encode(
                    SimpleBGC.Frame(command: SimpleBGC.Command.realtimeData3.rawValue, payload: []), version: version))
        }
    }

    private static func handle(_ frame: SimpleBGC.Frame, _ s: inout State, clock: any MonotonicClock) {
        switch SimpleBGC.Command(rawValue: frame.command) {
        case .boardInfo: s.boardInfo = frame.payload
        case .control: s.confirms += 1
        case .error: s.deviceErrors += 1
        case .realtimeData3:
            if let data = SimpleBGC.realtimeData(frame.payload) {
                let radians = Double.pi / 180
                s.feedback.report(
                    Vector3D(
                        x: data.angles.pitch * radians, y: data.angles.yaw * radians, z: data.angles.roll * radians),
                    at: clock.now)
                s.volts = data.volts
            }
        default: break
        }
    }

}
