import DockCore

/// What went wrong with the virtual camera OpenDock writes its picture to, and what to do.
public enum VideoOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchDevice(path: String)
    case cannotOpen(path: String, Errno)
    case notALoopback(path: String, driver: String, card: String)
    case formatRefused(path: String, asked: String, got: String)
    case oddWidth(PixelSize)
    case shapeMismatch(asked: PixelSize, camera: PixelSize)
    case writeFailed(path: String, Errno)

    static let loadHint =
        "load v4l2loopback (modprobe v4l2loopback video_nr=N card_label=\"OpenDock camera\" exclusive_caps=1) and name its /dev/videoN"

    public var description: String {
        switch self {
        case .noSuchDevice(let path):
            "--video-out: no such device \(path); \(Self.loadHint)"
        case .cannotOpen(let path, let e) where e == .permissionDenied:
            "--video-out: no permission to write \(path): add the user to the 'video' group"
        case .cannotOpen(let path, let e):
            "--video-out: cannot open \(path): \(e); \(Self.loadHint)"
        case .notALoopback(let path, let driver, _) where driver.isEmpty:
            "--video-out: \(path) is not a V4L2 device; \(Self.loadHint)"
        case .notALoopback(let path, let driver, let card):
            "--video-out: \(path) is '\(card)' (driver \(driver)), not a v4l2loopback device; \(Self.loadHint)"
        case .formatRefused(let path, let asked, let got):
            "--video-out: \(path) refused \(asked) (it offers \(got)); free the device (is another program writing to it?) or pick another size with --video-out-size"
        case .oddWidth(let size):
            "--video-out-size: YUYV needs an even width, got \(size)"
        case .shapeMismatch(let asked, let camera):
            "--video-out-size: \(asked) is not the camera's shape (\(camera)); pick a size of the same aspect ratio"
        case .writeFailed(let path, let e):
            "video out to \(path) failed: \(e)"
        }
    }
}
