import DockCore
import Foundation

/// A Pelco-D pan-tilt head on RS-485 (through a USB adapter): speed moves in 64 steps, the pose
/// from pan/tilt position queries every 100 ms (heads that do not answer them stay
/// commanded-only), presets. RS-485 is half-duplex: the host keeps quiet while an answer is due
/// (`PelcoDBusTurns`). Pelco-D has no device-side timeout: the host deadman guards it.
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
        var bus = PelcoDBusTurns()
    }
    private let state: Protected<State>

    /// Connects and asks for the pan position; `requireAnswer` refuses heads that do not answer.
    public init(
        name: String, address: UInt8 = 1, maximumPanSpeed: Double = 60 * Double.pi / 180,
        maximumTiltSpeed: Double = 30 * Double.pi / 180, requireAnswer: Bool = true,
        clock: any MonotonicClock = SystemMonotonicClock(),
        open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
        onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }
    ) throws(LinkError) {
        self.name = name
        self.address = address
        self.maximumPanSpeed = maximumPanSpeed
        self.maximumTiltSpeed = maximumTiltSpeed
        self.clock = clock
        let state = Protected(State())
        self.state = state
        // Answers free the bus from the reader thread, which then sends what waited; weak, as
        // the runner owns that thread.
        let sender = Protected(WeakRunner())
        runner = try LinkRunner(
            name: name, open: open,
            onBytes: { bytes in
                let next = state.withLock { s -> [PelcoDBusTurns.Output] in
                    var next: [PelcoDBusTurns.Output] = []
                    for m in s.decoder.feed(bytes) where m.address == address {
                        switch PelcoD.reply(m) {
                        case .pan(let h):
                            s.pan = Double(h) / 100
                            next += s.bus.answered(.pan, at: clock.now)
                        case .tilt(let h):
                            s.tilt = Double(h) / 100
                            next += s.bus.answered(.tilt, at: clock.now)
                        case .other: continue
                        }
                        if let pan = s.pan, let tilt = s.tilt {
                            // 0…360° clockwise; past 180 is the other side of zero.
                            func wrap(_ d: Double) -> Double { (d > 180 ? d - 360 : d) * Double.pi / 180 }
                            s.feedback.report(Vector3D(x: wrap(tilt), y: wrap(pan), z: 0), at: clock.now)
                        }
                    }
                    return next
                }
                // A failed send here is the runner's to see and report (it reconnects).
                if !next.isEmpty, let runner = sender.withLock({ $0.runner }) {
                    try? Self.transmit(next, address: address, runner: runner)
                }
            }, onEvent: onEvent)
        let yaw = try? AxisLimit(positionRange: -Double.pi..<Double.pi, maximumSpeed: maximumPanSpeed)
        let pitch = try? AxisLimit(positionRange: -1.5..<1.5, maximumSpeed: maximumTiltSpeed)
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: true,
            speedStep: maximumPanSpeed / Double(PelcoD.maximumSpeed), commandLatency: PelcoD.typicalLatency)
        sender.withLock { $0.runner = runner }
        try runner.handshake(
            PelcoD.queryPan(address: address).bytes, what: "the Pelco-D pan position query (address \(address))"
        ) {
            !requireAnswer || state.withLock { $0.pan != nil }
        }
    }

    private struct WeakRunner: Sendable { weak var runner: LinkRunner? }

    /// Sends in order, stopping at the first failure.
    private static func transmit(_ outputs: [PelcoDBusTurns.Output], address: UInt8, runner: LinkRunner)
        throws(LinkError)
    {
        for output in outputs {
            let message =
                switch output {
                case .command(let m): m
                case .query(.pan): PelcoD.queryPan(address: address)
                case .query(.tilt): PelcoD.queryTilt(address: address)
                }
            try runner.send(message.bytes)
        }
    }

    deinit { runner.close() }
    public func close() { runner.close() }
    public var isConnected: Bool { runner.isConnected }
    public var decoderRejections: (skippedBytes: Int, badMessages: Int) {
        state.withLock { ($0.decoder.skippedBytes, $0.decoder.badMessages) }
    }

    public func goToPreset(_ n: UInt8) throws(LinkError) {
        try send(PelcoD.goToPreset(address: address, n), isMove: false)
    }
    public func setPreset(_ n: UInt8) throws(LinkError) {
        try send(PelcoD.setPreset(address: address, n), isMove: false)
    }

    /// Through the bus's turns: out now, or once the awaited answer has come. Only a failure to
    /// send now is thrown (the runner sees a later one).
    private func send(_ message: PelcoD.Message, isMove: Bool) throws(LinkError) {
        guard isConnected else { throw .disconnected(name) }
        let outputs = state.withLock { $0.bus.command(message, isMove: isMove, at: clock.now) }
        try Self.transmit(outputs, address: address, runner: runner)
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let steps = Double(PelcoD.maximumSpeed)
        let pan = Int((velocity.y / maximumPanSpeed * steps).rounded())
        let tilt = Int((velocity.x / maximumTiltSpeed * steps).rounded())
        let move = PelcoD.move(address: address, panSpeed: pan, tiltSpeed: tilt)
        let changed = state.withLock { s -> Bool in
            s.feedback.commanded = Vector3D(
                x: Double(max(-63, min(63, tilt))) / steps * maximumTiltSpeed,
                y: Double(max(-63, min(63, pan))) / steps * maximumPanSpeed, z: 0)
            defer { s.lastMove = move }
            return s.lastMove != move
        }
        if changed { try send(move, isMove: true) }
        pollFeedback(at: time)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { $0.feedback.motionState(at: time) }
    }

    public func feedbackSilence(at time: MonotonicInstant) -> Double? {
        state.withLock { $0.feedback.silence(at: time) }
    }

    /// Starts a poll when one is due and the bus is free; gives the bus back after an overdue answer.
    public func pollFeedback(at time: MonotonicInstant) {
        let outputs = state.withLock { s -> [PelcoDBusTurns.Output] in
            let outputs = s.bus.tick(at: time)
            // The silence watch counts from each poll's start.
            if outputs.contains(.query(.pan)) { _ = s.feedback.queryDue(at: time, interval: 0) }
            return outputs
        }
        try? Self.transmit(outputs, address: address, runner: runner)
    }

    /// Position queries whose answer never came (the head is slow, silent or cannot answer).
    public var unansweredQueries: Int { state.withLock { $0.bus.unanswered } }
}
