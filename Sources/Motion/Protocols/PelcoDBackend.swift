import DockCore
import Foundation

/// A Pelco-D pan-tilt head on RS-485 (through a USB adapter): speed moves in 64 steps, the pose
/// from pan/tilt position queries every 100 ms (heads that do not answer them stay
/// commanded-only), presets. Pelco-D has no device-side timeout: the host deadman guards it.
public final class PelcoDBackend: MotorBackend {
    public let name: String
    public let capabilities: MotorCapabilities
    public let address: UInt8
    /// Pan speed at step 0x3F and tilt speed at 0x3F (rad/s).
    public let maximumPanSpeed: Double
    public let maximumTiltSpeed: Double
    private let runner: LinkRunner
    private let clock: any MonotonicClock

    private struct State: Sendable {
        var decoder = PelcoDDecoder()
        /// Degrees as the head reports them (0…360), until both are known.
        var pan: Double?, tilt: Double?
        var feedback = PolledFeedback()
        var lastMove: PelcoD.Message?
    }
    private let state: Protected<State>

    /// Connects and asks for the pan position; `requireAnswer` refuses heads that do not answer.
    public init(name: String, address: UInt8 = 1, maximumPanSpeed: Double = 60 * Double.pi / 180,
                maximumTiltSpeed: Double = 30 * Double.pi / 180, requireAnswer: Bool = true,
                clock: any MonotonicClock = SystemMonotonicClock(),
                open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
                onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }) throws(LinkError) {
        self.name = name
        self.address = address
        self.maximumPanSpeed = maximumPanSpeed
        self.maximumTiltSpeed = maximumTiltSpeed
        self.clock = clock
        let state = Protected(State())
        self.state = state
        runner = try LinkRunner(name: name, open: open, onBytes: { bytes in
            state.withLock { s in
                for m in s.decoder.feed(bytes) where m.address == address {
                    switch PelcoD.reply(m) {
                    case .pan(let h): s.pan = Double(h) / 100
                    case .tilt(let h): s.tilt = Double(h) / 100
                    case .other: continue
                    }
                    if let pan = s.pan, let tilt = s.tilt {
                        // 0…360° clockwise; past 180 is the other side of zero.
                        func wrap(_ d: Double) -> Double { (d > 180 ? d - 360 : d) * Double.pi / 180 }
                        s.feedback.report(Vector3D(x: wrap(tilt), y: wrap(pan), z: 0), at: clock.now)
                    }
                }
            }
        }, onEvent: onEvent)
        let yaw = try? AxisLimit(positionRange: -Double.pi..<Double.pi, maximumSpeed: maximumPanSpeed)
        let pitch = try? AxisLimit(positionRange: -1.5..<1.5, maximumSpeed: maximumTiltSpeed)
        capabilities = MotorCapabilities(limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: true,
                                         speedStep: maximumPanSpeed / Double(PelcoD.maximumSpeed))
        try runner.handshake(PelcoD.queryPan(address: address).bytes, what: "the Pelco-D pan position query (address \(address))") {
            !requireAnswer || state.withLock { $0.pan != nil }
        }
    }

    deinit { runner.close() }
    public func close() { runner.close() }
    public var isConnected: Bool { runner.isConnected }
    public var decoderRejections: (skippedBytes: Int, badMessages: Int) { state.withLock { ($0.decoder.skippedBytes, $0.decoder.badMessages) } }

    public func goToPreset(_ n: UInt8) throws(LinkError) { try runner.send(PelcoD.goToPreset(address: address, n).bytes) }
    public func setPreset(_ n: UInt8) throws(LinkError) { try runner.send(PelcoD.setPreset(address: address, n).bytes) }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let steps = Double(PelcoD.maximumSpeed)
        let pan = Int((velocity.y / maximumPanSpeed * steps).rounded())
        let tilt = Int((velocity.x / maximumTiltSpeed * steps).rounded())
        let move = PelcoD.move(address: address, panSpeed: pan, tiltSpeed: tilt)
        let changed = state.withLock { s -> Bool in
            s.feedback.commanded = Vector3D(x: Double(max(-63, min(63, tilt))) / steps * maximumTiltSpeed,
                                   y: Double(max(-63, min(63, pan))) / steps * maximumPanSpeed, z: 0)
            defer { s.lastMove = move }
            return s.lastMove != move
        }
        if changed { try runner.send(move.bytes) }
        queryIfDue(at: time)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        queryIfDue(at: time)
        return state.withLock { $0.feedback.motionState(at: time) }
    }

    public func feedbackSilence(at time: MonotonicInstant) -> Double? { state.withLock { $0.feedback.silence(at: time) } }

    private func queryIfDue(at time: MonotonicInstant) {
        if state.withLock({ $0.feedback.queryDue(at: time, interval: 0.1) }) { try? runner.send(PelcoD.queryPan(address: address).bytes + PelcoD.queryTilt(address: address).bytes) }
    }
}
