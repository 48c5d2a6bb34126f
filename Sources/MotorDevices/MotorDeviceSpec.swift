import Capture
import Foundation
import Motion

/// A motor device named on the command line:
///   simplebgc:PATH[@BAUD]     SimpleBGC gimbal controller (serial API v2; default 115200)
///   visca:PATH[@BAUD]         VISCA PTZ camera on a serial port (default 9600)
///   visca-udp:HOST[:PORT]     VISCA over IP (default port 52381)
///   visca-tcp:HOST:PORT       raw VISCA over TCP
///   pelco:PATH[@BAUD][/ADDR]  Pelco-D head on RS-485 (default 9600, address 1)
///   maestro:PATH              Pololu Maestro servos: pan channel 0, tilt channel 1
///   uvc                       the live camera's own pan/tilt controls
public enum MotorDeviceSpec: Sendable, Equatable, CustomStringConvertible {
    case simpleBGC(path: String, baud: Int)
    case viscaSerial(path: String, baud: Int)
    case viscaUDP(host: String, port: UInt16)
    case viscaTCP(host: String, port: UInt16)
    case pelcoD(path: String, baud: Int, address: UInt8)
    case maestro(path: String)
    case uvc

    public init?(parsing text: String) {
        if text == "uvc" {
            self = .uvc
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        func pathAndBaud(_ s: String, _ fallback: Int) -> (String, Int)? {
            let pieces = s.split(separator: "@", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { return (s, fallback) }
            guard let baud = Int(pieces[1]), baud > 0 else { return nil }
            return (pieces[0], baud)
        }
        func hostAndPort(_ s: String, _ fallback: UInt16?) -> (String, UInt16)? {
            let pieces = s.split(separator: ":").map(String.init)
            if pieces.count == 1, let fallback { return (pieces[0], fallback) }
            guard pieces.count == 2, let port = UInt16(pieces[1]), port > 0 else { return nil }
            return (pieces[0], port)
        }
        switch parts[0] {
        case "simplebgc":
            guard let (p, b) = pathAndBaud(parts[1], 115200) else { return nil }
            self = .simpleBGC(path: p, baud: b)
        case "visca":
            guard let (p, b) = pathAndBaud(parts[1], 9600) else { return nil }
            self = .viscaSerial(path: p, baud: b)
        case "visca-udp":
            guard let (h, p) = hostAndPort(parts[1], 52381) else { return nil }
            self = .viscaUDP(host: h, port: p)
        case "visca-tcp":
            guard let (h, p) = hostAndPort(parts[1], nil) else { return nil }
            self = .viscaTCP(host: h, port: p)
        case "pelco":
            var rest = parts[1]
            var address: UInt8 = 1
            if let slash = rest.lastIndex(of: "/"), let a = UInt8(rest[rest.index(after: slash)...]), a > 0 {
                address = a
                rest = String(rest[..<slash])
            }
            guard let (p, b) = pathAndBaud(rest, 9600) else { return nil }
            self = .pelcoD(path: p, baud: b, address: address)
        case "maestro": self = .maestro(path: parts[1])
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .simpleBGC(let p, let b): "simplebgc:\(p)@\(b)"
        case .viscaSerial(let p, let b): "visca:\(p)@\(b)"
        case .viscaUDP(let h, let p): "visca-udp:\(h):\(p)"
        case .viscaTCP(let h, let p): "visca-tcp:\(h):\(p)"
        case .pelcoD(let p, let b, let a): "pelco:\(p)@\(b)/\(a)"
        case .maestro(let p): "maestro:\(p)"
        case .uvc: "uvc"
        }
    }

    /// Connects to the device. `camera` is the live camera's path (for `uvc`).
    public func connect(camera: String?, onEvent: @escaping @Sendable (LinkEvent) -> Void)
        throws(MotorDeviceError) -> any MotorBackend
    {
        do {
            if let linked = try openLink(onEvent: onEvent) { return linked }
        } catch {
            throw .link(error)
        }
        guard let camera else { throw .uvcWithoutCamera }
        let port: V4L2ControlPort
        do { port = try V4L2ControlPort(path: camera) } catch { throw .cameraControls(error) }
        do { return try UVCPTZBackend(name: "uvc:\(camera)", port: port) } catch { throw .link(error) }
    }

    /// The devices on a serial port or a socket; nil for the camera's own controls.
    private func openLink(onEvent: @escaping @Sendable (LinkEvent) -> Void) throws(LinkError) -> (any MotorBackend)? {
        let name = description
        switch self {
        case .simpleBGC(let path, let baud):
            return try SimpleBGCBackend(
                name: name,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: baud) },
                onEvent: onEvent)
        case .viscaSerial(let path, let baud):
            return try VISCABackend(
                name: name,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: baud) },
                onEvent: onEvent)
        case .viscaUDP(let host, let port):
            return try VISCABackend(
                name: name,
                open: { () throws(LinkError) -> any ByteLink in
                    VISCAOverIPLink(try SocketLink.udp(host: host, port: port))
                }, onEvent: onEvent)
        case .viscaTCP(let host, let port):
            return try VISCABackend(
                name: name,
                open: { () throws(LinkError) -> any ByteLink in try SocketLink.tcp(host: host, port: port) },
                onEvent: onEvent)
        case .pelcoD(let path, let baud, let address):
            return try PelcoDBackend(
                name: name, address: address,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: baud) },
                onEvent: onEvent)
        case .maestro(let path):
            return try MaestroBackend(
                name: name,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 115200) },
                onEvent: onEvent)
        case .uvc:
            return nil
        }
    }
}
