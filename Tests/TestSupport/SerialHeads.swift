import DockCore
import Foundation
import Motion

/// An emulated head on a real pseudo-terminal and the backend that drives it at 9600 baud: what
/// the device tests start from. Keep the value alive for as long as the link is used.
public struct SerialHead<Device, Backend> {
    public let device: Device
    public let port: SerialPeer
    public let backend: Backend
}

extension SerialHead where Device == VISCACamera, Backend == VISCABackend {
    public static func visca(_ camera: VISCACamera = VISCACamera()) throws -> Self {
        let port = try SerialPeer { camera.handle($0) }
        let path = port.path
        let backend = try VISCABackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 9600) })
        return Self(device: camera, port: port, backend: backend)
    }
}

extension SerialHead where Device == PelcoDHead, Backend == PelcoDBackend {
    /// `prepare` sets the line up (a half-duplex bus) before the backend opens it.
    public static func pelco(_ head: PelcoDHead = PelcoDHead(), prepare: (SerialPeer) -> Void = { _ in }) throws
        -> Self
    {
        let port = try SerialPeer { head.handle($0) }
        prepare(port)
        let path = port.path
        let backend = try PelcoDBackend(
            name: path, address: head.address,
            open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 9600) })
        return Self(device: head, port: port, backend: backend)
    }
}
