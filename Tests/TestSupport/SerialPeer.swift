import CSerial
import DockCore
import Foundation
import Glibc
import Motion

/// A device on the far end of a real pseudo-terminal: the code under test opens `path` (a
/// stable symlink to the pty's slave, like /dev/serial/by-id/…) as a serial port; the peer
/// reads the bytes it writes and answers through `respond`. It can go silent, drop or corrupt
/// bytes, hang up (unplug) and come back on a new pty behind the same path (replug).
public final class SerialPeer: @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var master: Int32 = -1
    private var running = true
    private var respond: ([UInt8]) -> [UInt8]
    private var isSilent = false
    private var dropping = 0
    private var corrupting = 0
    private var received: [UInt8] = []

    /// Answer nothing (a device that stopped responding).
    public var silent: Bool {
        get { lock.withLock { isSilent } }
        set { lock.withLock { isSilent = newValue } }
    }
    /// Drop every Nth byte of the answers (0 = none).
    public var dropEvery: Int {
        get { lock.withLock { dropping } }
        set { lock.withLock { dropping = newValue } }
    }
    /// Flip a bit in the next N answers.
    public var corruptNext: Int {
        get { lock.withLock { corrupting } }
        set { lock.withLock { corrupting = newValue } }
    }
    private var sentCount = 0
    private var turns: (messageLength: Int, answerDelay: Double)?
    private var collided = 0

    /// A half-duplex bus (RS-485): requests are read one `messageLength` at a time and answered
    /// `answerDelay` seconds later; bytes from the host before the answer has gone out collide
    /// with it — counted, and the answer is lost, as on a real bus. nil: full duplex.
    public var halfDuplex: (messageLength: Int, answerDelay: Double)? {
        get { lock.withLock { turns } }
        set { lock.withLock { turns = newValue } }
    }
    /// Times the host talked while an answer was due.
    public var collisions: Int { lock.withLock { collided } }

    public init(respond: @escaping ([UInt8]) -> [UInt8]) throws {
        self.respond = respond
        path = Fixtures.temporaryDirectory("serial") + "/by-id-device"
        try plug()
        let thread = Thread { [weak self] in
            while let peer = self, peer.isRunning { peer.pump() }
        }
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        lock.withLock {
            running = false
            if master >= 0 { close(master) }
            master = -1
        }
    }

    /// Closes the master end: the other side sees a hang-up, as when a USB adapter is pulled.
    public func unplug() {
        lock.withLock {
            if master >= 0 { close(master) }
            master = -1
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A new pty behind the same stable path.
    public func plug() throws {
        var name = [CChar](repeating: 0, count: 128)
        let fd = cserial_open_pty(&name, name.count)
        guard fd >= 0 else { throw Fixtures.Missing(path: "a pseudo-terminal (\(String(cString: strerror(errno))))") }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(
            atPath: path,
            withDestinationPath: String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        lock.withLock { master = fd }
    }

    public var receivedBytes: [UInt8] { lock.withLock { received } }
    var isRunning: Bool { lock.withLock { running } }

    /// Waits for bytes without the lock (a pthread mutex is not fair: a loop that held it across
    /// its 20 ms poll starved `unplug` for tens of seconds on some kernels), then holds it for
    /// the read and the answer, on the descriptor only if it is still the current one, so
    /// `unplug` or `stop` cannot close it mid-call.
    private func pump() {
        let fd = lock.withLock { master }
        guard fd >= 0 else {
            Thread.sleep(forTimeInterval: 0.01)
            return
        }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, 20) > 0
        lock.lock()
        defer { lock.unlock() }
        guard fd == master, ready, entry.revents & Int16(POLLIN) != 0 else {
            if entry.revents & Int16(POLLHUP) != 0 {
                lock.unlock()
                Thread.sleep(forTimeInterval: 0.01)
                lock.lock()
            }
            return
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, turns?.messageLength ?? buffer.count)
        guard n > 0 else { return }
        let bytes = Array(buffer.prefix(n))
        received += bytes
        var answer = isSilent ? [] : respond(bytes)
        guard !answer.isEmpty else { return }
        if let turns {
            lock.unlock()
            Thread.sleep(forTimeInterval: turns.answerDelay)
            lock.lock()
            guard fd == master else { return }
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&waiting, 1, 0) > 0, waiting.revents & Int16(POLLIN) != 0 {
                collided += 1
                return
            }
        }
        if corrupting > 0 {
            corrupting -= 1
            answer[answer.count - 1] ^= 0x40
        }
        if dropping > 0 {
            answer = answer.enumerated().compactMap { i, b in (sentCount + i + 1) % dropping == 0 ? nil : b }
        }
        sentCount += answer.count
        _ = answer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// A SimpleBGC controller: answers CMD_BOARD_INFO, confirms CMD_CONTROL and CMD_CONTROL_CONFIG,
/// reports its angles and battery in CMD_REALTIME_DATA_3, answers CMD_ERROR to anything else,
/// moves its axes at the commanded speeds, and stops obeying when commands stop for longer than
/// the timeout the host configured.
public final class SimpleBGCPeer: @unchecked Sendable {
    public let port: SerialPeer
    private let lock = NSLock()
    private var decoder: SimpleBGCDecoder
    private var dynamics = GimbalDynamics(model: GimbalModel(maximumSpeed: 4, maximumAcceleration: 40, latency: 0))
    private let start = SystemMonotonicClock().now
    private var lastControl: MonotonicInstant?
    private var timeout: UInt16 = 0
    private var controls = 0
    /// The timeout the host configured, and the CMD_CONTROL frames obeyed.
    public var timeoutMilliseconds: UInt16 { lock.withLock { timeout } }
    public var controlFrames: Int { lock.withLock { controls } }
    private var batteryVolts = 12.34
    /// The battery voltage it reports (a 3S pack: 12.6 V full, 9.9 V empty).
    public var volts: Double {
        get { lock.withLock { batteryVolts } }
        set { lock.withLock { batteryVolts = newValue } }
    }

    public init(version: SimpleBGC.Version = .v2) throws {
        decoder = SimpleBGCDecoder(version: version)
        var peer: SimpleBGCPeer?
        port = try SerialPeer { bytes in peer?.handle(bytes, version: version) ?? [] }
        peer = self
        // The controller runs its own loop: it checks the host timeout every 10 ms.
        let thread = Thread { [weak self] in
            while let me = self {
                me.lock.withLock { me.tick() }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        thread.start()
    }

    public var path: String { port.path }

    /// Current angles (radians: x pitch, y yaw).
    public var pose: Vector3D {
        lock.withLock {
            tick()
            return dynamics.position
        }
    }
    public var velocity: Vector3D {
        lock.withLock {
            tick()
            return dynamics.velocity
        }
    }

    private var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now.nanoseconds - start.nanoseconds)
    }

    private func tick() {
        let t = now
        if timeout > 0, let last = lastControl, t.seconds(since: last) * 1000 > Double(timeout),
            dynamics.velocity != Vector3D() || lastControl != nil
        {
            dynamics.command(Vector3D(), at: t)
            lastControl = nil
        }
        dynamics.advance(to: t)
    }

    private func handle(_ bytes: [UInt8], version: SimpleBGC.Version) -> [UInt8] {
        lock.withLock {
            tick()
            var out: [UInt8] = []
            for frame in decoder.feed(bytes) {
                let reply: SimpleBGC.Frame
                switch SimpleBGC.Command(rawValue: frame.command) {
                case .boardInfo:
                    reply = SimpleBGC.Frame(
                        command: frame.command, payload: [30, 0x0A, 0x0A] + [UInt8](repeating: 0, count: 15))
                case .control where frame.payload.count == 15:
                    let radians = Double.pi / 180
                    func speed(_ at: Int) -> Double {
                        Double(Int16(bitPattern: UInt16(frame.payload[at]) | UInt16(frame.payload[at + 1]) << 8))
                            * SimpleBGC.degreesPerSecondPerSpeedUnit * radians
                    }
                    dynamics.command(Vector3D(x: speed(7), y: speed(11), z: 0), at: now)
                    lastControl = now
                    controls += 1
                    reply = SimpleBGC.Frame(command: SimpleBGC.Command.control.rawValue, payload: [frame.command])
                case .controlConfig where frame.payload.count >= 2:
                    timeout = UInt16(frame.payload[0]) | UInt16(frame.payload[1]) << 8
                    reply = SimpleBGC.Frame(command: SimpleBGC.Command.control.rawValue, payload: [frame.command])
                case .realtimeData3:
                    var payload = [UInt8](repeating: 0, count: 63)
                    let degrees = 180 / Double.pi
                    for (i, angle) in [0.0, dynamics.position.x * degrees, dynamics.position.y * degrees].enumerated() {
                        let units = UInt16(
                            bitPattern: Int16(clamping: Int((angle / SimpleBGC.degreesPerAngleUnit).rounded())))
                        payload[32 + 2 * i] = UInt8(units & 0xFF)
                        payload[33 + 2 * i] = UInt8(units >> 8)
                    }
                    let centivolts = UInt16((batteryVolts * 100).rounded())
                    payload[55] = UInt8(centivolts & 0xFF)
                    payload[56] = UInt8(centivolts >> 8)
                    reply = SimpleBGC.Frame(command: frame.command, payload: payload)
                default:
                    reply = SimpleBGC.Frame(command: SimpleBGC.Command.error.rawValue, payload: [1, frame.command])
                }
                out += SimpleBGC.encode(reply, version: version)
            }
            return out
        }
    }
}
