import DockCore

/// What went wrong with a capture device, and what to do about it.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, Errno)
    case permissionDenied(path: String)
    case notACaptureDevice(path: String)
    case noUsableFormat(path: String, offered: [String])
    case call(path: String, request: String, Errno)
    case disconnected(path: String)
    case stalled(path: String, seconds: Double)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let e):
            "cannot open \(path): \(e) (is the camera plugged in? see dockctl devices)"
        case .permissionDenied(let path):
            "no permission to open \(path): add the user to the 'video' group or fix the udev rule"
        case .notACaptureDevice(let path):
            "\(path) is not a video capture device (a metadata or output node?); see dockctl devices"
        case .noUsableFormat(let path, let offered):
            "\(path) offers no format OpenDock can decode (offered: \(offered.joined(separator: ", ")))"
        case .call(let path, let request, let e):
            "\(request) on \(path) failed: \(e)"
        case .disconnected(let path):
            "\(path) was disconnected"
        case .stalled(let path, let seconds):
            "\(path) delivered no frame for \(seconds) s"
        }
    }

    /// The same failure in the terms of `FrameSource`.
    public var frameSourceError: FrameSourceError {
        switch self {
        case .disconnected: FrameSourceError(description, kind: .disconnected)
        case .stalled: FrameSourceError(description, kind: .timeout)
        case .call(_, _, let e) where e == .noDevice: FrameSourceError(description, kind: .disconnected)
        default: FrameSourceError(description, kind: .failed)
        }
    }
}
