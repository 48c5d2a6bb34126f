import CSerial
import Foundation
import Glibc

/// Why a link to a device failed.
public enum LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(String, errno: Int32)
    case disconnected(String)
    case io(String, errno: Int32)
    case noAnswer(String, what: String)

    public var description: String {
        switch self {
        case .cannotOpen(let name, let e): "cannot open \(name): \(String(cString: strerror(e))) (is the device plugged in? is the user in the 'dialout' group?)"
        case .disconnected(let name): "\(name) was disconnected"
        case .io(let name, let e): "\(name): \(String(cString: strerror(e)))"
        case .noAnswer(let name, let what): "no answer from \(name) to \(what): wrong port, baud rate or protocol?"
        }
    }
}

/// A byte stream to a device: a serial port, a pseudo-terminal, a UDP or TCP socket.
public protocol ByteLink: AnyObject, Sendable {
    var name: String { get }
    func write(_ bytes: [UInt8]) throws(LinkError)
    /// Waits up to `timeout` seconds for bytes and returns what arrived (maybe nothing).
    func read(timeout: Double) throws(LinkError) -> [UInt8]
    func close()
}

/// A file-descriptor link (serial port or pty): poll, read, write; hang-up is a disconnect.
/// Calls go through a `DescriptorGuard`, so a close from another thread never pulls the
/// descriptor from under a read in progress.
public final class FileDescriptorLink: ByteLink {
    public let name: String
    private let fd: DescriptorGuard

    public init(name: String, fd: Int32) {
        self.name = name
        self.fd = DescriptorGuard(fd)
    }

    /// Opens a serial device raw 8N1 at `baud`.
    public static func serial(_ path: String, baud: Int) throws(LinkError) -> FileDescriptorLink {
        let fd = cserial_open(path, Int32(baud))
        guard fd >= 0 else { throw .cannotOpen(path, errno: errno) }
        return FileDescriptorLink(name: path, fd: fd)
    }

    deinit { close() }

    public func close() { fd.close() }

    public func write(_ bytes: [UInt8]) throws(LinkError) {
        try fd.use { fd throws(LinkError) in try write(bytes, fd: fd) }
    }

    private func write(_ bytes: [UInt8], fd: Int32) throws(LinkError) {
        guard fd >= 0 else { throw .disconnected(name) }
        var offset = 0
        var waited = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN && waited < 100 {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 10)
                waited += 1
                continue
            }
            if n < 0 && (errno == EIO || errno == ENXIO || errno == ENODEV) { throw .disconnected(name) }
            throw .io(name, errno: n < 0 ? errno : EAGAIN)
        }
    }

    public func read(timeout: Double) throws(LinkError) -> [UInt8] {
        try fd.use { fd throws(LinkError) -> [UInt8] in try read(timeout: timeout, fd: fd) }
    }

    private func read(timeout: Double, fd: Int32) throws(LinkError) -> [UInt8] {
        guard fd >= 0 else { throw .disconnected(name) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(max(0, timeout * 1000)))
        if ready < 0 { if errno == EINTR { return [] }; throw .io(name, errno: errno) }
        if ready == 0 { return [] }
        if entry.revents & Int16(POLLIN) == 0, entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { throw .disconnected(name) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer.prefix(n)) }
        if n == 0 || errno == EIO || errno == ENXIO { throw .disconnected(name) }
        if errno == EAGAIN || errno == EINTR { return [] }
        throw .io(name, errno: errno)
    }
}
