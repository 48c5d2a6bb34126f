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
        return FileDescriptorLink(name: name, fd: try connected(socketType: SOCK_STREAM, host: host, port: port, name: name))
    }

    static func connected(socketType: __socket_type, host: String, port: UInt16, name: String) throws(LinkError) -> FileDescriptor {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(socketType.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { throw .cannotOpen(name, Errno(EHOSTUNREACH)) }
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
        } catch where error == .wouldBlock || error == .connectionRefused {
            // A refused datagram (nobody listening) is not a broken link; the device may come back.
            return []
        } catch {
            throw .io(name, error)
        }
    }
}

/// VISCA over IP (UDP port 52381): every message travels with an 8-byte header — payload type
/// (0x0100 command, 0x0110 inquiry; replies 0x0111), payload length and a sequence number, all
/// big-endian. This link adds the header on the way out and strips it on the way in.
public final class VISCAOverIPLink: ByteLink {
    public let inner: any ByteLink
    private let sequence = Protected<UInt32>(0)
    public var name: String { inner.name }

    public init(_ inner: any ByteLink) { self.inner = inner }

    public static func header(type: UInt16, length: Int, sequence: UInt32) -> [UInt8] {
        [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
         UInt8(sequence >> 24), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence & 0xFF)]
    }

    public func write(_ bytes: [UInt8]) throws(LinkError) {
        let type: UInt16 = bytes.count > 1 && bytes[1] == 0x09 ? 0x0110 : 0x0100
        let seq = sequence.withLock { s -> UInt32 in
            defer { s &+= 1 }
            return s
        }
        try inner.write(Self.header(type: type, length: bytes.count, sequence: seq) + bytes)
    }

    public func read(timeout: Double) throws(LinkError) -> [UInt8] {
        let datagram = try inner.read(timeout: timeout)
        guard datagram.count > 8 else { return [] }
        let type = UInt16(datagram[0]) << 8 | UInt16(datagram[1])
        let length = Int(datagram[2]) << 8 | Int(datagram[3])
        guard type == 0x0111 || type == 0x0100 || type == 0x0110, length == datagram.count - 8 else { return [] }
        return Array(datagram[8...])
    }

    public func close() { inner.close() }
}
