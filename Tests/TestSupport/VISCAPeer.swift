import DockCore
import Foundation
import Glibc
import Motion

/// A VISCA PTZ camera in software: pans and tilts at the commanded speed steps, answers
/// ACK + completion to commands, the position and version inquiries, and errors as a camera
/// does (syntax error for what it does not know, "buffer full" when told to).
public final class VISCACamera: @unchecked Sendable {
    private let lock = NSLock()
    private var decoder = VISCADecoder()
    private var dynamics: GimbalDynamics
    private let start = SystemMonotonicClock().now
    let model: VISCAModel
    private var bufferFull = 0
    private var drives: [[UInt8]] = []
    /// Answer "command buffer full" to the next N commands.
    public var bufferFullNext: Int {
        get { lock.withLock { bufferFull } }
        set { lock.withLock { bufferFull = newValue } }
    }

    private var reversedReports = false
    /// A camera set (in its own menu) to report its pan the other way from how it drives it.
    public var reportsPanReversed: Bool {
        get { lock.withLock { reversedReports } }
        set { lock.withLock { reversedReports = newValue } }
    }

    private var isMuted = false
    /// A hung controller: ignores and answers nothing while set.
    public var muted: Bool {
        get { lock.withLock { isMuted } }
        set { lock.withLock { isMuted = newValue } }
    }

    /// The zoom lens: its position (0 wide … 0x4000 tele), where it is going, and the speed of
    /// its motor in positions a second (the whole range in 2.5 s, as a PTZ camera's lens).
    private var zoom: (position: Double, target: Double, time: MonotonicInstant?)?
    private let zoomSpeed = Double(0x4000) / 2.5
    private var zoomCommands: [UInt16] = []

    /// `latency`: seconds from a command's arrival to the head acting on it. `zoomPosition`: where
    /// its lens starts; nil for a camera without zoom (it answers the zoom commands with a
    /// syntax error).
    public init(model: VISCAModel = VISCAModel(), latency: Double = 0, zoomPosition: UInt16? = 0) {
        self.model = model
        zoom = zoomPosition.map { (Double($0), Double($0), nil) }
        dynamics = GimbalDynamics(
            model: GimbalModel(
                maximumSpeed: 4, maximumAcceleration: 30, latency: latency, yawRange: -3...3, pitchRange: -1.6...1.6))
    }

    private var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now.nanoseconds - start.nanoseconds)
    }

    public var pose: Vector3D {
        lock.withLock {
            dynamics.advance(to: now)
            return dynamics.position
        }
    }
    public var velocity: Vector3D {
        lock.withLock {
            dynamics.advance(to: now)
            return dynamics.velocity
        }
    }
    public var driveCount: Int { lock.withLock { drives.count } }
    /// Where the lens is now, and the zoom direct positions received.
    public var zoomPosition: Double? {
        lock.withLock {
            advanceZoom()
            return zoom?.position
        }
    }
    public var zoomDirectCommands: [UInt16] { lock.withLock { zoomCommands } }

    private func advanceZoom() {
        guard var lens = zoom else { return }
        let t = now
        if let last = lens.time {
            let step = zoomSpeed * t.seconds(since: last)
            lens.position += max(-step, min(step, lens.target - lens.position))
        }
        lens.time = t
        zoom = lens
    }

    public func handle(_ bytes: [UInt8]) -> [UInt8] {
        lock.withLock {
            dynamics.advance(to: now)
            advanceZoom()
            let messages = decoder.feed(bytes)
            return isMuted ? [] : messages.flatMap(answer)
        }
    }

    private func answer(_ m: [UInt8]) -> [UInt8] {
        let ack: [UInt8] = [0x90, 0x41, 0xFF]
        let done: [UInt8] = [0x90, 0x51, 0xFF]
        if m.count == 5, m[1] == 0x09, m[2] == 0x00, m[3] == 0x02 {
            return [0x90, 0x50, 0x00, 0x01, 0x05, 0x11, 0x01, 0x00, 0x02, 0xFF]
        }
        if m.count == 5, m[1] == 0x09, m[2] == 0x06, m[3] == 0x12 {
            let sign: Double = reversedReports ? -1 : 1
            let pan = Int16(clamping: Int((sign * dynamics.position.y / model.radiansPerPositionUnit).rounded()))
            let tilt = Int16(clamping: Int((-dynamics.position.x / model.radiansPerPositionUnit).rounded()))
            return [0x90, 0x50] + VISCA.nibbles(UInt16(bitPattern: pan)) + VISCA.nibbles(UInt16(bitPattern: tilt)) + [
                0xFF
            ]
        }
        if m.count == 5, m[1] == 0x09, m[2] == 0x04, m[3] == 0x47, let lens = zoom {
            return [0x90, 0x50] + VISCA.nibbles(UInt16(lens.position.rounded())) + [0xFF]
        }
        guard m.count >= 4, m[1] == 0x01 else { return [0x90, 0x60, 0x02, 0xFF] }
        if bufferFull > 0 {
            bufferFull -= 1
            return [0x90, 0x61, 0x03, 0xFF]
        }
        if m.count == 9, m[2] == 0x06, m[3] == 0x01 {
            drives.append(m)
            let pan = Double(m[4]) / Double(VISCA.maximumPanSpeed) * model.maximumPanSpeed
            let tilt = Double(m[5]) / Double(VISCA.maximumTiltSpeed) * model.maximumTiltSpeed
            let yaw = m[6] == 1 ? -pan : (m[6] == 2 ? pan : 0)
            let pitch = m[7] == 1 ? -tilt : (m[7] == 2 ? tilt : 0)
            dynamics.command(Vector3D(x: pitch, y: yaw, z: 0), at: now)
            return ack + done
        }
        if m.count == 6, m[2] == 0x04, m[3] == 0x07, zoom != nil { return ack + done }  // zoom variable
        if m.count == 9, m[2] == 0x04, m[3] == 0x47, zoom != nil {
            let position = UInt16(VISCA.value(nibbles: m[4..<8]).magnitude)
            zoomCommands.append(position)
            zoom?.target = min(Double(position), Double(0x4000))
            return ack + done
        }
        if m.count == 5, m[2] == 0x06, m[3] == 0x04 { return ack + done }  // home
        return [0x90, 0x60, 0x02, 0xFF]
    }
}

/// A VISCA-over-IP camera on a loopback UDP port: strips the 8-byte header, answers through
/// `VISCACamera`, and wraps replies with payload type 0x0111. Like cameras that count sequence
/// numbers, it refuses messages (control reply ERROR 0x0F 0x01) until a control RESET has come,
/// and after `reboot()`, and ones whose number is not above the last it took.
public final class VISCAUDPPeer: @unchecked Sendable {
    public let camera: VISCACamera
    public let port: UInt16
    private let fd: Int32
    private var running = true
    private let lock = NSLock()
    /// Every datagram received, in order.
    private var received: [(type: UInt16, sequence: UInt32, payload: [UInt8])] = []
    /// The last sequence number taken since the last RESET; nil before one.
    private var lastSequence: UInt32?
    private var afterReset = false

    public var log: [(type: UInt16, sequence: UInt32, payload: [UInt8])] { lock.withLock { received } }

    /// Forgets the sequence count, as a camera does when it restarts.
    public func reboot() { lock.withLock { afterReset = false } }

    /// A broken camera refuses every message from now on, RESET or not.
    public func refuseEverything() { lock.withLock { (afterReset, refusesAll) = (false, true) } }
    private var refusesAll = false

    public init(camera: VISCACamera = VISCACamera()) throws {
        self.camera = camera
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            port = 0
            throw Fixtures.Missing(path: "a loopback UDP port")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [weak self] in
            while let peer = self, peer.lock.withLock({ peer.running }) {
                peer.serve()
                usleep(100)
            }
        }
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        lock.withLock {
            if running { close(fd) }
            running = false
        }
    }

    /// Under the lock, so `stop` cannot close the socket mid-call.
    private func serve() {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 20) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 2048)
        var from = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let n = withUnsafeMutablePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &length) }
        }
        guard n > 8 else { return }
        let datagram = Array(buffer.prefix(n))
        let type = UInt16(datagram[0]) << 8 | UInt16(datagram[1])
        let sequence =
            UInt32(datagram[4]) << 24 | UInt32(datagram[5]) << 16 | UInt32(datagram[6]) << 8 | UInt32(datagram[7])
        let payload = Array(datagram[8...])
        received.append((type, sequence, payload))
        func send(_ type: UInt16, _ reply: [UInt8]) {
            let packet = VISCAOverIPLink.header(type: type, length: reply.count, sequence: sequence) + reply
            _ = withUnsafePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, packet, packet.count, 0, $0, length) }
            }
        }
        if type == 0x0200 {
            if payload == VISCAOverIPLink.reset, !refusesAll { (afterReset, lastSequence) = (true, nil) }
            send(0x0201, [0x01])
            return
        }
        guard afterReset, lastSequence.map({ sequence > $0 }) ?? true else {
            send(0x0201, VISCAOverIPLink.sequenceError)
            return
        }
        lastSequence = sequence
        var decoder = VISCADecoder()
        for reply in decoder.feed(camera.handle(payload)) { send(0x0111, reply) }
    }
}
