import Foundation
import Glibc

/// Where the control API listens: a Unix socket (the default; its file mode is the access
/// control) or a TCP address.
public enum ControlEndpoint: Sendable, Equatable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: UInt16)

    public var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// A loopback address: only programs on this machine reach it.
    public var isLoopback: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }

    /// $OPENDOCK_SOCKET, else dockd.sock in systemd's RuntimeDirectory or the user's runtime
    /// folder, else /tmp/dockd-UID.sock: where dockd listens and dockctl looks.
    public static var defaultSocketPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["OPENDOCK_SOCKET"], !path.isEmpty { return path }
        if let folder = environment["RUNTIME_DIRECTORY"], !folder.isEmpty { return folder + "/dockd.sock" }
        if let folder = environment["XDG_RUNTIME_DIR"], !folder.isEmpty { return folder + "/dockd.sock" }
        return "/tmp/dockd-\(getuid()).sock"
    }

    /// `HOST:PORT`, `[V6]:PORT` or a bare `PORT` (loopback).
    public static func parseTCP(_ text: String) -> ControlEndpoint? {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = String(rest.dropFirst())
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = UInt16(portText) else { return nil }
        return .tcp(host: host, port: port)
    }
}
