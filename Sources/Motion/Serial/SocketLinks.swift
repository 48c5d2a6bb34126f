import DockCore
import Foundation
import Glibc

/// UDP and TCP links to network devices (VISCA over IP, raw VISCA over TCP).
public enum SocketLink {
    /// A UDP "connection" to host:port (IPv4 literal or name); each write is one datagram.
    public static func udp(host: String, port: UInt16) throws(LinkError) -> FileDescriptorDatagramLink {
        let name = "udp://\(host):\(port)"
        let fd = try connected(socketType: SOCK_DGRAM, host: host, port: port, name: name)
        return FileDescriptorDatagramLink(name: name, fd: fd)
    }

    /// A TCP connection to host:port, as a byte stream.
    public static func tcp(host: String, port: UInt16) throws(LinkError) -> FileDescriptorLink {
        let name = "tcp://\(host):\(port)"
        return FileDescriptorLink(
            name: name, fd: try connected(socketType: SOCK_STREAM, host: host, port: port, name: name))
    }

    static func connected(socketType: __socket_type, host: String, port: UInt16, name: String) throws(LinkError)
        -> FileDescriptor
    {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(socketType.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw .cannotOpen(name, Errno(EHOSTUNREACH))
        }
        defer { freeaddrinfo(result) }
        do throws(Errno) {
            let fd = try FileDescriptor.socket(info.pointee.ai_family, Int32(socketType.rawValue))
            do throws(Errno) {
                try fd.connect(to: info.pointee.ai_addr, length: info.pointee.ai_addrlen)
                try fd.setNonBlocking()
            } catch {
                fd.close()
                throw error
            }
            return fd
        } catch {
            throw .cannotOpen(name, error)
        }
    }
}

/// A connected datagram socket: `write` sends one datagram, `read` returns one.
public final class FileDescriptorDatagramLink: ByteLink {
    public let name: String
    private let fd: DescriptorGuard

    init(name: String, fd: FileDescriptor) {
        self.name = name
        self.fd = DescriptorGuard(fd)
    }

    deinit { close() }

    public func close() { fd.close() }

    public func write(_ bytes: [UInt8]) throws(LinkError) {
        try fd.use { fd throws(LinkError) in
            guard let fd else { throw .disconnected(name) }
            do throws(Errno) {
                _ = try fd.send(bytes[...])
            } catch {
                throw error == .connectionRefused ? .disconnected(name) : .io(name, error)
            }
        }
    }

    public func read(timeout: Double) throws(LinkError) -> [UInt8] {
        try fd.use { fd throws(LinkError) -> [UInt8] in try receive(timeout: timeout, fd: fd) }
    }

    private func receive(timeout: Double, fd: FileDescriptor?) throws(LinkError) -> [UInt8] {
        guard let fd else { throw .disconnected(name) }
        var buffer = [UInt8](repeating: 0, count: 2048)
        do throws(Errno) {
            guard try fd.poll(for: .readable, timeout: timeout).contains(.readable) else { return [] }
            let n = try fd.receive(into: &buffer)
            return Array(buffer.prefix(n))
        } catch  where error == .wouldBlock || error == .connectionRefused {
            // A refused datagram (nobody listening) is not a broken link; the device may come back.
            return []
        } catch {
            throw .io(name, error)
        }
    }
}

/// VISCA over IP (UDP port 52381): every message travels with an 8-byte header — payload type
/// (0x0100 command, 0x0110 inquiry; replies 0x0111; 0x0200 control command, 0x0201 control
/// reply), payload length and a sequence number, all big-endian. This link adds the header on the
/// way out and strips it on the way in. Cameras count sequence numbers and some refuse commands
/// until the controller has reset the count, so a control RESET goes out before the first
/// message, and when the camera refuses a message as out of sequence (it restarted, or
/// datagrams were lost) that message goes out again after a new RESET — a drive command sent
/// once must not be lost. The camera's acknowledgement and errors are consumed here.
public final class VISCAOverIPLink: ByteLink {
    public let inner: any ByteLink
    private struct Sequence {
        var next: UInt32 = 0
        var needsReset = true
        /// The last messages sent, by sequence number, to send again when one is refused (once:
        /// a camera that refuses everything must not be answered by a flood).
        var recent: [(number: UInt32, message: [UInt8], isRetry: Bool)] = []
    }
    private let sequence = Protected(Sequence())
    public var name: String { inner.name }

    /// The control command RESET, and the error a camera sends on a sequence number it refuses.
    public static let reset: [UInt8] = [0x01]
    public static let sequenceError: [UInt8] = [0x0F, 0x01]

    public init(_ inner: any ByteLink) { self.inner = inner }

    public static func header(type: UInt16, length: Int, sequence: UInt32) -> [UInt8] {
        [
            UInt8(type >> 8), UInt8(type & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            UInt8(sequence >> 24), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence & 0xFF),
        ]
    }

    public func write(_ bytes: [UInt8]) throws(LinkError) { try send(bytes, isRetry: false) }

    private func send(_ bytes: [UInt8], isRetry: Bool) throws(LinkError) {
        let type: UInt16 = bytes.count > 1 && bytes[1] == 0x09 ? 0x0110 : 0x0100
        // The RESET carries 0 (the camera ignores it); the messages after it count from 1.
        let (resetFirst, number) = sequence.withLock { s -> (Bool, UInt32) in
            let resetting = s.needsReset
            // Numbers start again after a RESET, so older messages could share one.
            if resetting { (s.next, s.needsReset, s.recent) = (1, false, []) }
            defer { s.next &+= 1 }
            s.recent = s.recent.suffix(7) + [(s.next, bytes, isRetry)]
            return (resetting, s.next)
        }
        if resetFirst { try inner.write(Self.header(type: 0x0200, length: 1, sequence: 0) + Self.reset) }
        try inner.write(Self.header(type: type, length: bytes.count, sequence: number) + bytes)
    }

    public func read(timeout: Double) throws(LinkError) -> [UInt8] {
        let datagram = try inner.read(timeout: timeout)
        guard datagram.count > 8 else { return [] }
        let type = UInt16(datagram[0]) << 8 | UInt16(datagram[1])
        let length = Int(datagram[2]) << 8 | Int(datagram[3])
        guard length == datagram.count - 8 else { return [] }
        let payload = Array(datagram[8...])
        switch type {
        case 0x0111, 0x0100, 0x0110: return payload
        case 0x0200, 0x0201:
            guard payload == Self.sequenceError else { return [] }
            let refused =
                UInt32(datagram[4]) << 24 | UInt32(datagram[5]) << 16 | UInt32(datagram[6]) << 8
                | UInt32(datagram[7])
            let again = sequence.withLock { s -> [UInt8]? in
                s.needsReset = true
                return s.recent.first { $0.number == refused && !$0.isRetry }?.message
            }
            if let again { try send(again, isRetry: true) }
            return []
        default: return []
        }
    }

    public func close() { inner.close() }
}
