import CMicroHTTPD
import ControlClient
import DockCore
import Foundation
import Glibc
import Pipeline

/// A real embedded HTTP server (libmicrohttpd) on one listening socket: one thread per
/// connection, so a handler or a streamed body may block without touching Swift's thread pool.
/// Bodies larger than `maximumBodySize` are refused with 413 before they are read.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public let endpoint: ControlEndpoint
    public let maximumBodySize: Int
    fileprivate let handler: Handler
    fileprivate let overTCP: Bool
    /// Set when the server stops: streamed bodies end at their next wait.
    fileprivate let closing = Protected(false)
    private var daemon: OpaquePointer?
    private var unmanagedSelf: Unmanaged<HTTPServer>?

    /// Listens on `endpoint` and serves until `stop`; `option` is the command-line option that
    /// chose the endpoint, named when it cannot be had.
    public init(
        endpoint: ControlEndpoint, maximumBodySize: Int = 64 * 1024, connectionLimit: Int = 64,
        option: String = "--http",
        handler: @escaping Handler
    ) throws(SessionError) {
        let socket = try ListeningSocket.open(endpoint, option: option)
        self.endpoint = socket.endpoint
        self.maximumBodySize = maximumBodySize
        self.handler = handler
        if case .tcp = endpoint { overTCP = true } else { overTCP = false }
        let context = Unmanaged.passRetained(self)
        guard
            let started = cmicrohttpd_start(
                socket.descriptor.rawValue, UInt32(connectionLimit), 60, accessHandler,
                context.toOpaque(), requestCompleted)
        else {
            context.release()
            socket.descriptor.close()
            throw SessionError("the HTTP server could not start on \(endpoint)")
        }
        daemon = started
        unmanagedSelf = context
    }

    /// Ends every stream, waits for the connections' threads and closes the socket.
    public func stop() {
        guard let running = daemon else { return }
        closing.withLock { $0 = true }
        daemon = nil
        let fd = MHD_quiesce_daemon(running)
        MHD_stop_daemon(running)
        if fd >= 0 { FileDescriptor(rawValue: fd).close() }
        if case .unix(let path) = endpoint { unlink(path) }
        unmanagedSelf?.release()
        unmanagedSelf = nil
    }

    deinit { stop() }
}

/// One request's state between libmicrohttpd's calls: the body as it arrives.
private final class RequestBody {
    var bytes: [UInt8] = []
    var tooLarge = false
}

/// Feeds a streamed body to libmicrohttpd's reader in the sizes it asks for.
private final class StreamPump {
    let stream: any HTTPBodyStream
    let closing: Protected<Bool>
    var pending: [UInt8] = []
    var pendingOffset = 0

    init(stream: any HTTPBodyStream, closing: Protected<Bool>) {
        self.stream = stream
        self.closing = closing
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, maximum: Int) -> Int {
        while pendingOffset >= pending.count {
            if closing.withLock({ $0 }) { return cmicrohttpd_end_of_stream() }
            switch stream.next(waiting: 0.2) {
            case .bytes(let bytes):
                pending = bytes
                pendingOffset = 0
            case .idle: continue
            case .end: return cmicrohttpd_end_of_stream()
            }
        }
        let count = min(maximum, pending.count - pendingOffset)
        pending.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + pendingOffset, byteCount: count)
        }
        pendingOffset += count
        return count
    }
}

private func lookup(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, _ key: String) -> String? {
    MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
}

/// Every query argument, decoded.
private func queryArguments(_ connection: OpaquePointer?) -> [String: String] {
    final class Box { var values: [String: String] = [:] }
    let box = Box()
    let unmanaged = Unmanaged.passRetained(box)
    defer { unmanaged.release() }
    _ = MHD_get_connection_values(
        connection, .GET_ARGUMENT_KIND,
        { cls, _, key, value in
            guard let cls, let key else { return .YES }
            Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue().values[String(cString: key)] =
                value.map { String(cString: $0) } ?? ""
            return .YES
        }, unmanaged.toOpaque())
    return box.values
}

/// An upgraded connection's protocol, kept until libmicrohttpd hands over the socket.
private final class UpgradeHandoff {
    let run: @Sendable (UpgradedConnection) -> Void
    let closing: Protected<Bool>
    init(run: @escaping @Sendable (UpgradedConnection) -> Void, closing: Protected<Bool>) {
        self.run = run
        self.closing = closing
    }
}

/// Linux's `struct ucred` (pid, uid, gid), which Glibc's module hides behind _GNU_SOURCE.
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// The process at the other end of a Unix socket (SO_PEERCRED); nil over TCP.
private func peerProcess(of socket: Int32) -> Int32? {
    var credentials = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else {
        return nil
    }
    return credentials.pid
}

private func send(_ response: HTTPResponse, on connection: OpaquePointer?, closing: Protected<Bool>) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .upgrade(let protocolName, let run):
        // Retained until the socket is handed over; released there (or here, if never made).
        let handoff = Unmanaged.passRetained(UpgradeHandoff(run: run, closing: closing))
        made = MHD_create_response_for_upgrade(
            { cls, _, _, extra, extraSize, socket, handle in
                guard let cls else { return }
                let handoff = Unmanaged<UpgradeHandoff>.fromOpaque(cls).takeRetainedValue()
                let pending = extra.map { Array(UnsafeRawBufferPointer(start: $0, count: extraSize)) } ?? []
                let closing = handoff.closing
                handoff.run(
                    UpgradedConnection(
                        descriptor: FileDescriptor(rawValue: socket), pending: pending,
                        peerProcess: peerProcess(of: socket), closing: { closing.withLock { $0 } }))
                _ = cmicrohttpd_close_upgraded(handle)
            }, handoff.toOpaque())
        if made == nil { handoff.release() }
        if let made {
            MHD_add_response_header(made, "Upgrade", protocolName)
            MHD_add_response_header(made, "Connection", "Upgrade")
        }
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        let pump = Unmanaged.passRetained(StreamPump(stream: stream, closing: closing))
        made = MHD_create_response_from_callback(
            cmicrohttpd_size_unknown(), 32 * 1024,
            { cls, _, buffer, maximum in
                guard let cls, let buffer else { return cmicrohttpd_end_with_error() }
                return Unmanaged<StreamPump>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, maximum: maximum)
            }, pump.toOpaque(),
            { cls in
                guard let cls else { return }
                let pump = Unmanaged<StreamPump>.fromOpaque(cls).takeRetainedValue()
                pump.stream.close()
            })
        if made == nil { pump.release() }
    }
    guard let made else { return .NO }
    if case .upgrade = response.body {} else { MHD_add_response_header(made, "Content-Type", response.contentType) }
    MHD_add_response_header(made, "Cache-Control", "no-store")
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    let queued = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return queued
}

/// libmicrohttpd's access handler: called once with the headers, then with each piece of the
/// body, then once more with none left.
private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let body = requestContext.pointee.map({ Unmanaged<RequestBody>.fromOpaque($0).takeUnretainedValue() }) else {
        // First call: the headers. A body announced too large is refused before it is read.
        if let length = lookup(connection, .HEADER_KIND, "Content-Length").flatMap({ Int($0) }),
            length > server.maximumBodySize
        {
            return send(
                .error(
                    413, "request body of \(length) bytes is over the \(server.maximumBodySize)-byte limit; send less"),
                on: connection, closing: server.closing)
        }
        requestContext.pointee = Unmanaged.passRetained(RequestBody()).toOpaque()
        return .YES
    }
    if let uploadSize, uploadSize.pointee > 0 {
        if let uploadData, !body.tooLarge {
            if body.bytes.count + uploadSize.pointee > server.maximumBodySize {
                body.tooLarge = true
                body.bytes = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    body.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if body.tooLarge {
        return send(
            .error(413, "request body is over the \(server.maximumBodySize)-byte limit; send less"), on: connection,
            closing: server.closing)
    }
    let rawURL = url.map { String(cString: $0) } ?? "/"
    let path = rawURL.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
    var headers: [String: String] = [:]
    for name in ["Authorization", "Accept", "Content-Type", "Host", "Upgrade", "Connection"] {
        if let value = lookup(connection, .HEADER_KIND, name) { headers[name.lowercased()] = value }
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: path, query: queryArguments(connection),
        headers: headers, body: body.bytes, overTCP: server.overTCP)
    return send(server.handler(request), on: connection, closing: server.closing)
}

/// Frees a request's body state however the request ended.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let body = requestContext.pointee else { return }
    Unmanaged<RequestBody>.fromOpaque(body).release()
    requestContext.pointee = nil
}
