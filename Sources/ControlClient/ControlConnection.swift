import DockCore
import Foundation
import Glibc

/// Why a control request got no answer; the message says what to do.
public struct ControlClientError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The HTTP status the service refused with; nil when it could not be reached or went away.
    public let refusalStatus: Int?
    public init(_ message: String, refusalStatus: Int? = nil) {
        self.message = message
        self.refusalStatus = refusalStatus
    }
    public var description: String { message }
}

/// A control API answer.
public struct ControlReply: Sendable {
    public var status: Int
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object, when it is one.
    public var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
    /// The service's one-line error, when the request was refused.
    public var errorMessage: String? { status >= 400 ? (object?["error"] as? String ?? text) : nil }
}

/// dockctl's side of the control API: one HTTP/1.1 request per connection, over the Unix socket
/// or TCP, with the token when one is given.
public struct ControlConnection: Sendable {
    public let endpoint: ControlEndpoint
    public let token: String?

    public init(endpoint: ControlEndpoint, token: String? = nil) {
        self.endpoint = endpoint
        self.token = token
    }

    /// Whether something accepts connections on the Unix socket at `path`.
    package static func isAnswering(_ path: String) -> Bool {
        guard let fd = try? ControlConnection(endpoint: .unix(path: path)).connect(timeout: 0.5) else { return false }
        fd.close()
        return true
    }

    /// Sends a request and reads the whole answer.
    public func request(_ method: String, _ path: String, json: Any? = nil, timeout: Double = 5)
        throws(ControlClientError) -> ControlReply
    {
        var body: [UInt8] = []
        if let json {
            guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) else {
                throw ControlClientError("the request could not be written as JSON")
            }
            body = Array(data)
        }
        return try request(method, path, body: body, timeout: timeout)
    }

    public func request(
        _ method: String, _ path: String, body: [UInt8], contentType: String = "application/json",
        timeout: Double = 5
    ) throws(ControlClientError) -> ControlReply {
        let fd = try connect(timeout: timeout)
        defer { fd.close() }
        try write(head(method, path, contentLength: body.count, contentType: contentType) + body, to: fd)
        var reader = HTTPResponseReader()
        var received: [UInt8] = []
        try readUntilClosed(fd, timeout: timeout) { bytes throws(ControlClientError) in
            do { received += try reader.feed(bytes) } catch {
                throw ControlClientError("the service's answer is malformed: \(error)")
            }
            return !reader.finished
        }
        guard let status = reader.status else {
            throw ControlClientError("the service closed the connection without answering")
        }
        return ControlReply(status: status, body: received)
    }

    /// Follows a server-sent event stream, calling `onEvent(name, data)` for each event until it
    /// returns false, `keepGoing` (asked every second while nothing comes) returns false, or
    /// the stream ends. A refused request throws with the service's message.
    public func events(
        _ path: String, keepGoing: @escaping () -> Bool = { true }, onEvent: (String, String) -> Bool
    ) throws(ControlClientError) {
        var parser = ServerSentEventParser()
        try follow(path, accept: "text/event-stream", keepGoing: keepGoing) { body in
            for event in parser.feed(body) where !onEvent(event.name, event.data) { return false }
            return true
        }
    }

    /// Follows a streamed answer (`GET path`), handing `onBody` the body's bytes as they come
    /// until it returns false, `keepGoing` (asked every second while nothing comes) returns
    /// false, or the stream ends. A refused request throws with the service's message.
    public func follow(
        _ path: String, accept: String, keepGoing: @escaping () -> Bool = { true }, onBody: ([UInt8]) -> Bool
    ) throws(ControlClientError) {
        let fd = try connect(timeout: 5)
        defer { fd.close() }
        try write(head("GET", path, contentLength: 0, contentType: nil, accept: accept), to: fd)
        var reader = HTTPResponseReader()
        var refusal: [UInt8] = []
        try readUntilClosed(fd, timeout: nil, whileIdle: keepGoing) { bytes throws(ControlClientError) in
            let body: [UInt8]
            do { body = try reader.feed(bytes) } catch {
                throw ControlClientError("the service's answer is malformed: \(error)")
            }
            if let status = reader.status, status != 200 {
                refusal += body
                return !reader.finished
            }
            return onBody(body) && !reader.finished
        }
        if let status = reader.status, status != 200 {
            throw ControlClientError(
                ControlReply(status: status, body: refusal).errorMessage ?? "refused with status \(status)")
        }
    }

    /// Asks to switch the connection from HTTP to `protocolName` (`POST path` with `Upgrade`);
    /// on 101 returns the socket and any bytes that came after the answer's head. A refusal
    /// throws with the service's message.
    package func upgrade(_ path: String, to protocolName: String, timeout: Double = 5)
        throws(ControlClientError) -> (FileDescriptor, [UInt8])
    {
        let fd = try connect(timeout: timeout)
        var reader = HTTPResponseReader()
        var after: [UInt8] = []
        do {
            try write(head("POST", path, contentLength: 0, contentType: nil, upgrade: protocolName), to: fd)
            try readUntilClosed(fd, timeout: timeout) { bytes throws(ControlClientError) in
                do { after += try reader.feed(bytes) } catch {
                    throw ControlClientError("the service's answer is malformed: \(error)")
                }
                guard let status = reader.status else { return true }
                if status == 101 { return false }
                // A refusal: its whole body, which says why.
                return after.count < Int(reader.headers["content-length"] ?? "") ?? Int.max
            }
        } catch {
            fd.close()
            throw error
        }
        guard let status = reader.status else {
            fd.close()
            throw ControlClientError("the service closed the connection without answering")
        }
        guard status == 101 else {
            fd.close()
            throw ControlClientError(
                ControlReply(status: status, body: after).errorMessage ?? "refused with status \(status)",
                refusalStatus: status)
        }
        return (fd, after)
    }

    private func head(
        _ method: String, _ path: String, contentLength: Int, contentType: String?, accept: String = "application/json",
        upgrade: String? = nil
    ) -> [UInt8] {
        let connection = upgrade.map { "Connection: Upgrade\r\nUpgrade: \($0)" } ?? "Connection: close"
        var lines = ["\(method) \(path) HTTP/1.1", "Host: opendock", connection, "Accept: \(accept)"]
        if contentLength > 0 || method != "GET" { lines.append("Content-Length: \(contentLength)") }
        if let contentType, contentLength > 0 { lines.append("Content-Type: \(contentType)") }
        if let token { lines.append("Authorization: Bearer \(token)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private func notRunning(_ reason: String) -> ControlClientError {
        switch endpoint {
        case .unix(let path):
            ControlClientError(
                "dockd is not running (no control socket at \(path): \(reason)); start it (systemctl start dockd, or dockd --demo) or name its socket with --socket"
            )
        case .tcp:
            ControlClientError(
                "dockd is not answering at \(endpoint) (\(reason)); start it with --http, or check the address")
        }
    }

    func connect(timeout: Double) throws(ControlClientError) -> FileDescriptor {
        switch endpoint {
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                throw ControlClientError("socket path \(path) is too long")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
            return try connected(AF_UNIX) { fd throws(Errno) in
                let done = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                        Result { () throws(Errno) in
                            try fd.connect(to: pointer, length: socklen_t(MemoryLayout<sockaddr_un>.size))
                        }
                    }
                }
                try done.get()
            }
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var found: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
                throw ControlClientError("cannot resolve \(host)")
            }
            defer { freeaddrinfo(found) }
            return try connected(info.pointee.ai_family) { fd throws(Errno) in
                try fd.connect(to: info.pointee.ai_addr, length: info.pointee.ai_addrlen)
            }
        }
    }

    /// A stream socket of `family`, connected by `connect`; the reason in dockctl's words if not.
    private func connected(_ family: Int32, _ connect: (FileDescriptor) throws(Errno) -> Void)
        throws(ControlClientError) -> FileDescriptor
    {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.socket(family, Int32(SOCK_STREAM.rawValue)) } catch {
            throw ControlClientError("cannot create a socket: \(error)")
        }
        do { try connect(fd) } catch {
            fd.close()
            throw notRunning(error.description)
        }
        return fd
    }

    private func write(_ bytes: [UInt8], to fd: FileDescriptor) throws(ControlClientError) {
        var offset = 0
        while offset < bytes.count {
            let n: Int
            do { n = try fd.send(bytes[offset...]) } catch {
                throw ControlClientError("the service closed the connection: \(error)")
            }
            guard n > 0 else { throw ControlClientError("the service closed the connection") }
            offset += n
        }
    }

    /// Reads until the peer closes or `more` returns false; `timeout` bounds each wait. With
    /// `whileIdle`, waits end every second and reading goes on while it returns true.
    private func readUntilClosed(
        _ fd: FileDescriptor, timeout: Double?, whileIdle: (() -> Bool)? = nil,
        _ more: ([UInt8]) throws(ControlClientError) -> Bool
    ) throws(ControlClientError) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let ready: Bool
            do { ready = try !fd.poll(for: .readable, timeout: whileIdle == nil ? timeout : 1).isEmpty } catch {
                throw ControlClientError("the connection to the service broke: \(error)")
            }
            if !ready, let whileIdle {
                if whileIdle() { continue }
                return
            }
            guard ready else { throw ControlClientError("the service did not answer within \(timeout ?? 0) s") }
            // A reset is the peer's way of closing too: what arrived before it stands, and the
            // response reader says whether it was whole.
            guard let n = try? fd.receive(into: &buffer) else { return }
            guard n > 0 else { return }
            guard try more(Array(buffer[..<n])) else { return }
        }
    }
}

/// Splits a server-sent event stream into events (`event:` name, `data:` lines joined).
package struct ServerSentEventParser {
    package init() {}

    private var pending: [UInt8] = []
    private var name = "message"
    private var data: [String] = []

    package mutating func feed(_ bytes: [UInt8]) -> [(name: String, data: String)] {
        pending += bytes
        var events: [(name: String, data: String)] = []
        while let newline = pending.firstIndex(of: 10) {
            var line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeFirst(newline + 1)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty {
                if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
                name = "message"
                data = []
            } else if line.hasPrefix(":") {
                continue  // a keep-alive comment
            } else if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.hasPrefix(" ") { value = value.dropFirst() }
                data.append(String(value))
            }
        }
        return events
    }
}
