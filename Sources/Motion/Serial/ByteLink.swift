import CSerial
import DockCore
import Foundation
import Glibc

/// Why a link to a device failed.
public enum LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(String, Errno)
    case disconnected(String)
    case io(String, Errno)
    case noAnswer(String, what: String)

    public var description: String {
        switch self {
        case .cannotOpen(let name, let e):
            "cannot open \(name): \(e) (is the device plugged in? is the user in the 'dialout' group?)"
        case .disconnected(let name): "\(name) was disconnected"
        case .io(let name, let e): "\(name): \(e)"
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

    public init(name: String, fd: FileDescriptor) {
        self.name = name
        self.fd = DescriptorGuard(fd)
    }

    /// Opens a serial device raw 8N1 at `baud`.
    public static func serial(_ path: String, baud: Int) throws(LinkError) -> FileDescriptorLink {
        let fd = cserial_open(path, Int32(baud))
        guard fd >= 0 else { throw .cannotOpen(path, .current) }
        return FileDescriptorLink(name: path, fd: FileDescriptor(rawValue: fd))
    }

    deinit { close() }

    public func close() { fd.close() }

    public func write(_ bytes: [UInt8]) throws(LinkError) {
        try fd.use { fd throws(LinkError) in try write(bytes, fd: fd) }
    }

    private func write(_ bytes: [UInt8], fd: FileDescriptor?) throws(LinkError) {
        guard let fd else { throw .disconnected(name) }
        var offset = 0
        var waited = 0
        while offset < bytes.count {
            do throws(Errno) {
                let n = try fd.write(bytes[offset...])
                if n > 0 {
                    offset += n
                    continue
                }
                throw Errno.wouldBlock
            } catch  where error == .wouldBlock && waited < 100 {
                // The device's buffer is full: wait a little for room, a second at most.
                _ = try? fd.poll(for: .writable, timeout: 0.01)
                waited += 1
            } catch {
                throw error.meansDeviceGone ? .disconnected(name) : .io(name, error)
            }
        }
    }

    public func read(timeout: Double) throws(LinkError) -> [UInt8] {
        try fd.use { fd throws(LinkError) -> [UInt8] in try read(timeout: timeout, fd: fd) }
    }

    private func read(timeout: Double, fd: FileDescriptor?) throws(LinkError) -> [UInt8] {
        guard let fd else { throw .disconnected(name) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n: Int
        do throws(Errno) {
            let events = try fd.poll(for: .readable, timeout: timeout)
            if events.isEmpty { return [] }
            // Hung up with nothing left to read: the device is gone.
            if !events.contains(.readable), events.isBroken { throw Errno.io }
            n = try fd.read(into: &buffer)
        } catch  where error == .wouldBlock {
            return []
        } catch {
            throw error.meansDeviceGone ? .disconnected(name) : .io(name, error)
        }
        guard n > 0 else { throw .disconnected(name) }
        return Array(buffer.prefix(n))
    }
}
