import DockCore
import Foundation
import Glibc

/// Newline-delimited JSON objects over a connected socket: how a DockKit program and dockd talk
/// once its session's connection has switched protocols. Both ends use it. Writes are whole
/// lines, one writer at a time; one reader takes lines as they complete.
public final class JSONLineChannel: Sendable {
    /// A line longer than this is a broken peer: the channel closes rather than buffer it.
    public static let maximumLineBytes = 1 << 20

    public enum Received: Sendable {
        case line(Data)
        /// Nothing complete within the wait.
        case idle
        /// The peer closed, the connection broke, or it sent a line too long.
        case closed(String)
    }

    public let descriptor: FileDescriptor
    private let unread: Protected<[UInt8]>
    private let writing = Protected(())

    /// `pending`: bytes already read from the socket (what came with the switch).
    public init(descriptor: FileDescriptor, pending: [UInt8] = []) {
        self.descriptor = descriptor
        unread = Protected(pending)
    }

    /// Sends `object` as one line.
    public func send(_ object: [String: Any]) throws(ControlClientError) {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { throw ControlClientError("a message could not be written as JSON") }
        let line = Array(data) + [0x0A]
        try writing.withLock { _ throws(ControlClientError) in
            var offset = 0
            while offset < line.count {
                let n: Int
                do { n = try descriptor.send(line[offset...], flags: Int32(MSG_NOSIGNAL)) } catch {
                    throw ControlClientError("the connection broke: \(error)")
                }
                guard n > 0 else { throw ControlClientError("the connection closed") }
                offset += n
            }
        }
    }

    /// The next complete line, waiting at most `timeout` seconds for one.
    public func receive(timeout: Double) -> Received {
        if let line = takeLine() { return .line(line) }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .idle }
            let ready: PollEvents
            do { ready = try descriptor.poll(for: .readable, timeout: left) } catch {
                return .closed("the connection broke: \(error)")
            }
            guard !ready.isEmpty else { return .idle }
            let count: Int
            do { count = try descriptor.receive(into: &buffer) } catch {
                return .closed("the connection broke: \(error)")
            }
            guard count > 0 else { return .closed("the other end closed the connection") }
            let tooLong = unread.withLock { unread in
                unread += buffer[..<count]
                return unread.count > Self.maximumLineBytes && !unread.contains(0x0A)
            }
            if tooLong { return .closed("a line over \(Self.maximumLineBytes) bytes") }
            if let line = takeLine() { return .line(line) }
        }
    }

    private func takeLine() -> Data? {
        unread.withLock { unread in
            guard let newline = unread.firstIndex(of: 0x0A) else { return nil }
            let line = Data(unread[..<newline])
            unread.removeFirst(newline + 1)
            return line
        }
    }
}
