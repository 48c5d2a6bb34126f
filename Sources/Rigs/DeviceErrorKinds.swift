import Capture
import DockCore
import Motion
import MotorDevices
import Pipeline

/// What a device's failure to open means for whoever started the run: a device not there (yet)
/// is worth starting again for; a permission or a device of the wrong kind is not.
extension CaptureError {
    var sessionKind: SessionError.Kind {
        switch self {
        case .cannotOpen(_, let e): e == .permissionDenied ? .setup : .deviceUnavailable
        case .disconnected, .stalled: .deviceUnavailable
        case .permissionDenied, .notACaptureDevice, .noUsableFormat: .setup
        case .call(_, _, let e): e == .noDevice ? .deviceUnavailable : .failed
        }
    }
}

extension MotorDeviceError {
    var sessionKind: SessionError.Kind {
        switch self {
        case .uvcWithoutCamera: .setup
        case .link(.cannotOpen(_, let e)): e == .permissionDenied ? .setup : .deviceUnavailable
        case .link(.disconnected), .link(.noAnswer): .deviceUnavailable
        case .link(.io): .failed
        case .cameraControls(let error): error.sessionKind
        }
    }
}
