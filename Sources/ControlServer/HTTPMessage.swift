import DockCore
import Foundation

/// One HTTP request as the control API sees it, body complete.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query.
    public var path: String
    public var query: [String: String]
    /// Header values by lower-case name.
    public var headers: [String: String]
    public var body: [UInt8]
    /// Arrived over TCP (not the Unix socket): the token, when one is set, is required.
    public var overTCP: Bool

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], overTCP: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.overTCP = overTCP
    }
}

/// What a streamed body yields when asked for more.
public enum StreamChunk: Sendable, Equatable {
    case bytes([UInt8])
    /// Nothing yet; asked again shortly.
    case idle
    case end
}

/// A response body produced as it goes (server-sent events, the MJPEG preview). `next` may
/// block for up to `waiting` seconds; it is called on the connection's own thread.
public protocol HTTPBodyStream: AnyObject, Sendable {
    func next(waiting: Double) -> StreamChunk
    /// The connection ended (client gone or server stopping).
    func close()
}

/// A connection switched from HTTP to another protocol (101 Switching Protocols): its socket,
/// the bytes that came after the request, and whether the server is stopping.
public struct UpgradedConnection: Sendable {
    public let descriptor: FileDescriptor
    /// Bytes the client sent after the request, before the switch: read them first.
    public let pending: [UInt8]
    /// The process at the other end of a Unix socket, when the kernel tells.
    public let peerProcess: Int32?
    let closing: @Sendable () -> Bool
    /// True once the server stops: the protocol ends at its next wait.
    public var isServerClosing: Bool { closing() }
}

public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(any HTTPBodyStream)
        /// 101 Switching Protocols to `protocolName`; `run` has the connection, on the
        /// connection's own thread, until it returns (then the socket is closed).
        case upgrade(protocolName: String, run: @Sendable (UpgradedConnection) -> Void)
    }
    public var status: Int
    public var contentType: String
    public var headers: [String: String] = [:]
    public var body: Body

    public init(status: Int, contentType: String, headers: [String: String] = [:], body: Body) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, contentType: contentType, body: .bytes(Array(text.utf8)))
    }

    /// A JSON object (keys sorted, so answers compare byte for byte).
    public static func json(_ status: Int, _ object: Any) -> HTTPResponse {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            return .text(
                500, "{\"error\": \"the answer could not be written as JSON\", \"status\": 500}\n",
                contentType: "application/json")
        }
        return HTTPResponse(status: status, contentType: "application/json", body: .bytes(Array(data) + [0x0A]))
    }

    /// `{"error": message}` — one line that says what was wrong and what to do.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": message, "status": status])
    }
}
