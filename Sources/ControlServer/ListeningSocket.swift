import ControlClient
import DockCore
import Foundation
import Glibc
import Pipeline

/// A listening socket handed to the HTTP server, which owns it from then on.
struct ListeningSocket {
    let descriptor: FileDescriptor
    /// The endpoint as bound (a TCP port 0 becomes the port the kernel chose).
    let endpoint: ControlEndpoint

    /// `option` is the command-line option that chose a TCP endpoint, for the error that says
    /// to choose another.
    static func open(_ endpoint: ControlEndpoint, option: String = "--http") throws(SessionError) -> ListeningSocket {
        switch endpoint {
        case .unix(let path): try openUnix(path)
        case .tcp(let host, let port): try openTCP(host: host, port: port, option: option)
        }
    }

    private static func openUnix(_ path: String) throws(SessionError) -> ListeningSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SessionError(
                "control socket path \(path) is longer than \(capacity - 1) bytes; choose a shorter --control-socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw SessionError("\(path) exists and is not a socket; remove it or choose another --control-socket")
            }
            if ControlConnection.isAnswering(path) {
                throw SessionError(
                    "another dockd is already serving \(path); stop it or choose another --control-socket")
            }
            unlink(path)  // left behind by a dockd that did not exit cleanly
        }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue)) } catch {
            throw SessionError("cannot create the control socket: \(error)")
        }
        let listening = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Result { () throws(Errno) in
                    try fd.listen(at: pointer, length: socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        if case .failure(let error) = listening {
            fd.close()
            throw SessionError("cannot listen on \(path): \(error); check that its folder exists and is writable")
        }
        chmod(path, 0o660)  // owner and group: the socket file's mode is the access control
        return ListeningSocket(descriptor: fd, endpoint: .unix(path: path))
    }

    private static func openTCP(host: String, port: UInt16, option: String) throws(SessionError) -> ListeningSocket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let name = host == "localhost" ? "127.0.0.1" : host
        let status = getaddrinfo(name, String(port), &hints, &found)
        guard status == 0, let info = found else {
            throw SessionError(
                "\(option) \(host): not an address this machine has (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(found) }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue)) } catch {
            throw SessionError("cannot create a TCP socket: \(error)")
        }
        var yes: Int32 = 1
        setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        do { try fd.listen(at: info.pointee.ai_addr, length: info.pointee.ai_addrlen) } catch {
            fd.close()
            throw SessionError(
                "cannot listen on \(ControlEndpoint.tcp(host: host, port: port)): \(error); choose another \(option) port"
            )
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var boundPort = port
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        if named == 0 {
            boundPort = withUnsafeBytes(of: &bound) { raw in
                // sin_port and sin6_port sit at the same offset, in network order.
                UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
            }
        }
        return ListeningSocket(descriptor: fd, endpoint: .tcp(host: host, port: boundPort))
    }
}
