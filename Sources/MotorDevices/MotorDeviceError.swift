import Capture
import Motion

/// Why the motor device named in the configuration could not be opened.
public enum MotorDeviceError: Error, Sendable, CustomStringConvertible {
    /// `uvc` drives the live camera's own pan/tilt, and no live camera is named.
    case uvcWithoutCamera
    /// The device's link (serial port, socket) could not be opened.
    case link(LinkError)
    /// The camera's controls could not be opened for its pan/tilt.
    case cameraControls(CaptureError)

    public var description: String {
        switch self {
        case .uvcWithoutCamera: "--gimbal uvc drives the camera's own pan/tilt: it needs --camera"
        case .link(let error): "\(error)"
        case .cameraControls(let error): "\(error)"
        }
    }
}
