import DockCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct VISCACodecTests {
    @Test func driveBytes() {
        #expect(
            VISCA.drive(panSpeed: 0x10, tiltSpeed: 0x08, pan: .right, tilt: .stop) == [
                0x81, 0x01, 0x06, 0x01, 0x10, 0x08, 0x02, 0x03, 0xFF,
            ])
        // Speeds are clamped to the protocol's range.
        #expect(VISCA.drive(panSpeed: 0x40, tiltSpeed: 0, pan: .left, tilt: .up)[4...5] == [0x18, 0x01])
        #expect(VISCA.zoom(speed: 3) == [0x81, 0x01, 0x04, 0x07, 0x23, 0xFF])
        #expect(VISCA.zoom(speed: -9) == [0x81, 0x01, 0x04, 0x07, 0x37, 0xFF])
    }

    @Test func absolutePositionNibblesRoundTrip() {
        let bytes = VISCA.absolutePosition(panSpeed: 5, tiltSpeed: 5, pan: -1234, tilt: 567)
        #expect(bytes.count == 15 && bytes.last == 0xFF)
        #expect(VISCA.value(nibbles: bytes[6..<10]) == -1234 && VISCA.value(nibbles: bytes[10..<14]) == 567)
    }

    @Test func repliesAreRecognised() {
        #expect(VISCA.reply([0x90, 0x41, 0xFF]) == .ack(socket: 1))
        #expect(VISCA.reply([0x90, 0x52, 0xFF]) == .completion(socket: 2))
        #expect(VISCA.reply([0x90, 0x61, 0x41, 0xFF])?.errorDescription == "command not executable")
        #expect(
            VISCA.reply([0x90, 0x50, 0xF, 0xF, 0xF, 0xF, 0x0, 0x0, 0x1, 0x0, 0xFF]) == .position(pan: -1, tilt: 16))
        #expect(VISCA.reply([0x90, 0x70, 0xFF]) == nil)
    }

    @Test func decoderSkipsGarbageAndCutMessages() {
        var decoder = VISCADecoder()
        let stream: [UInt8] =
            [0x00, 0x13, 0xFF] + [0x90, 0x41] + [0x90, 0x51, 0xFF] + [0x90] + [UInt8](repeating: 0x01, count: 20) + [
                0x90, 0x41, 0xFF,
            ]
        let messages = decoder.feed(stream)
        #expect(messages == [[0x90, 0x51, 0xFF], [0x90, 0x41, 0xFF]])
        #expect(decoder.skippedBytes >= 3 && decoder.droppedMessages == 2)
    }
}

@Suite(.serialized, .tags(.device)) struct VISCABackendTests {
    func wait(_ seconds: Double, until condition: () -> Bool) -> Bool { waitFor(seconds: seconds, until: condition) }

    @Test func serialCameraPansAtQuantisedSpeedsAndReportsItsPose() throws {
        let head = try SerialHead.visca()
        let (camera, backend) = (head.device, head.backend)
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        // 0.6 rad/s of a 100°/s camera is step 8.25 → 8: the camera moves at 8/24 of its top speed.
        try backend.setVelocity(Vector3D(x: -0.2, y: 0.6, z: 0), at: clock.now)
        #expect(wait(1) { abs(camera.velocity.y - 8.0 / 24 * 100 * .pi / 180) < 1e-9 })
        #expect(camera.velocity.x < 0)  // tilt up
        // The same command again is not resent (a camera buffers two commands).
        try backend.setVelocity(Vector3D(x: -0.2, y: 0.6, z: 0), at: clock.now)
        #expect(camera.driveCount == 1)
        #expect(
            wait(2) {
                Thread.sleep(forTimeInterval: 0.05)
                backend.pollFeedback(at: clock.now)
                return backend.motionState(at: clock.now).angularPositions.y > 0.2
            })
        #expect(abs(backend.motionState(at: clock.now).angularPositions.y - camera.pose.y) < 0.08)
        try backend.setVelocity(Vector3D(), at: clock.now)
        #expect(wait(1) { camera.velocity == Vector3D() })
        #expect(wait(1) { backend.replies.acks >= 2 && backend.replies.completions >= 2 })
    }

    @Test func errorRepliesAreCountedNotActedOn() throws {
        let camera = VISCACamera()
        camera.bufferFullNext = 1
        let head = try SerialHead.visca(camera)
        let backend = head.backend
        defer { backend.close() }
        try backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: SystemMonotonicClock().now)
        #expect(wait(1) { backend.replies.errors == ["command buffer full"] })
        #expect(camera.velocity == Vector3D())
    }

    /// A VISCA-over-IP camera on loopback UDP and a backend connected to it.
    func overIP() throws -> (VISCAUDPPeer, VISCABackend) {
        let peer = try VISCAUDPPeer()
        let port = peer.port
        let backend = try VISCABackend(
            name: "udp",
            open: { () throws(LinkError) -> any ByteLink in
                VISCAOverIPLink(try SocketLink.udp(host: "127.0.0.1", port: port))
            })
        return (peer, backend)
    }

    @Test func viscaOverIPOnLoopbackUDP() throws {
        let (peer, backend) = try overIP()
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        try backend.setVelocity(Vector3D(x: 0, y: -1, z: 0), at: clock.now)
        #expect(wait(1) { peer.camera.velocity.y < -0.9 })
        #expect(
            wait(2) {
                Thread.sleep(forTimeInterval: 0.05)
                backend.pollFeedback(at: clock.now)
                return backend.motionState(at: clock.now).angularPositions.y < -0.2
            })
    }

    /// The command latency measured through the protocol: a camera that acts 150 ms after each
    /// command (the table says 80 ms for VISCA), on loopback UDP, seen through the backend's own
    /// position inquiries. (Timing-bound: skipped under the sanitizers.)
    @Test func theLatencyIsMeasuredThroughTheProtocol() throws {
        let peer = try VISCAUDPPeer(camera: VISCACamera(latency: 0.15))
        let port = peer.port
        let backend = try VISCABackend(
            name: "udp",
            open: { () throws(LinkError) -> any ByteLink in
                VISCAOverIPLink(try SocketLink.udp(host: "127.0.0.1", port: port))
            })
        defer { backend.close() }
        let motors = MotorController(backend: backend)
        let clock = SystemMonotonicClock()
        for _ in 0..<4 {
            for frame in 0..<27 {  // 0.3 s moving, 0.6 s at rest, 30 commands a second
                try motors.command(Vector3D(x: 0, y: frame < 9 ? 0.3 : 0, z: 0), at: clock.now)
                Thread.sleep(forTimeInterval: 1.0 / 30)
            }
        }
        let measured = try #require(motors.measuredLatency)
        print(String(format: "VISCA over UDP, a camera acting 150 ms late: latency measured %.0f ms", measured * 1000))
        #expect(measured > 0.12 && measured < 0.3, "measured \(measured) s from \(motors.latencySamples) starts")
        #expect(motors.capabilities.commandLatency == measured && motors.latencySamples >= 3)
    }

    /// The camera counts sequence numbers: a RESET precedes the first message (the version
    /// inquiry), the count runs on from it, and when the camera restarts and refuses a command
    /// as out of sequence, the next message goes out after a new RESET and is taken.
    @Test func viscaOverIPResetsTheSequenceFirstAndAfterAnError() throws {
        let (peer, backend) = try overIP()
        defer { backend.close() }
        let first = try #require(peer.log.first)
        #expect(first.type == 0x0200 && first.payload == VISCAOverIPLink.reset, "\(peer.log)")
        let messages = peer.log.dropFirst().filter { $0.type != 0x0200 }
        #expect(!messages.isEmpty && messages.map(\.sequence) == Array(1...UInt32(messages.count)), "\(peer.log)")
        let clock = SystemMonotonicClock()
        try backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: clock.now)
        #expect(wait(1) { peer.camera.velocity.y > 0.4 })

        peer.reboot()
        let before = peer.log.count
        // Refused until the link has heard the error and reset; the control loop's next
        // command then gets through.
        #expect(
            wait(2 * Sanitizer.slowdown) {
                try? backend.setVelocity(Vector3D(x: 0, y: -0.5, z: 0), at: clock.now)
                Thread.sleep(forTimeInterval: 0.05)
                return peer.camera.velocity.y < -0.4
            })
        let after = peer.log.dropFirst(before)
        let reset = try #require(after.firstIndex { $0.type == 0x0200 }, "no RESET after the error: \(after)")
        #expect(after[reset].payload == VISCAOverIPLink.reset)
        #expect(after[..<reset].allSatisfy { $0.type != 0x0200 })

        // A camera that refuses everything gets each message once more, not a flood: about 10
        // position inquiries a second, each with a RESET and one retry.
        peer.refuseEverything()
        let start = peer.log.count
        Thread.sleep(forTimeInterval: 1)
        #expect(peer.log.count - start < 80, "\(peer.log.count - start) datagrams in 1 s")
    }

    /// A camera that answered and then hangs mid-run: the controller stops the motors, refuses
    /// commands while it stays silent, and takes them again once it answers.
    @Test func cameraFallingSilentMidRunIsStoppedAndRefused() throws {
        let camera = VISCACamera()
        let port = try SerialPeer { camera.handle($0) }
        let path = port.path
        let backend = try VISCABackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 9600) })
        defer { backend.close() }
        let controller = MotorController(backend: backend, silenceTimeout: 0.5)
        let clock = SystemMonotonicClock()
        var refusal: MotorCommandError?
        func drive() -> Bool {  // one control tick
            Thread.sleep(forTimeInterval: 0.03)
            do {
                try controller.command(Vector3D(x: 0, y: 0.3, z: 0), at: clock.now)
                refusal = nil
                return true
            } catch {
                refusal = error
                return false
            }
        }
        #expect(wait(2) { drive() && !backend.motionState(at: clock.now).isCommandedOnly })
        #expect(controller.lastCommand.y == 0.3 && controller.silenceStops == 0)
        camera.muted = true
        #expect(wait(3) { !drive() })
        guard case .deviceSilent(let name, let seconds)? = refusal else {
            Issue.record("expected a silent-device refusal, got \(String(describing: refusal))")
            return
        }
        #expect(name == path && seconds > 0.5)
        #expect(controller.isDeviceSilent && controller.silenceStops == 1 && controller.lastCommand == Vector3D())
        #expect(refusal?.description.contains("has not answered") == true)
        camera.muted = false
        #expect(wait(3) { drive() })
        #expect(!controller.isDeviceSilent && controller.silenceStops == 1 && controller.lastCommand.y == 0.3)
    }

    @Test func silentCameraIsRefused() throws {
        let port = try SerialPeer { _ in [] }
        let path = port.path
        #expect(throws: LinkError.self) {
            try VISCABackend(
                name: path,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 9600) })
        }
    }
}

/// A raw VISCA-over-TCP camera on loopback: one connection, bytes in, replies out.
final class VISCATCPPeer: @unchecked Sendable {
    let camera = VISCACamera()
    let port: UInt16
    private let listener: Int32

    init() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = server
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(server, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listen(server, 1)
        let camera = self.camera
        Thread {
            let connection = accept(server, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let n = read(connection, &buffer, buffer.count)
                if n <= 0 { break }
                let answer = camera.handle(Array(buffer.prefix(n)))
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            }
            close(connection)
        }.start()
    }

    deinit { close(listener) }
}

@Suite(.tags(.device)) struct VISCATCPTests {
    @Test func rawVISCAOverTCP() throws {
        let peer = try VISCATCPPeer()
        let port = peer.port
        let backend = try VISCABackend(
            name: "tcp",
            open: { () throws(LinkError) -> any ByteLink in try SocketLink.tcp(host: "127.0.0.1", port: port) })
        defer { backend.close() }
        try backend.setVelocity(Vector3D(x: 0, y: 0.3, z: 0), at: SystemMonotonicClock().now)
        #expect(waitFor(seconds: 1) { peer.camera.velocity.y > 0.2 })
        #expect(backend.capabilities.speedStep.map { abs($0 - 100.0 / 24 * .pi / 180) < 1e-12 } == true)
    }
}
