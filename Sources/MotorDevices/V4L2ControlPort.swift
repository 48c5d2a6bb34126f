import Capture
import DockCore
import Foundation
import Motion

/// A camera's V4L2 controls as a `CameraControlPort` for the UVC PTZ backend. It opens the
/// device node a second time; V4L2 allows controls on one descriptor while another streams.
public final class V4L2ControlPort: CameraControlPort {
    private let device: Protected<V4L2Device?>
    private let controls: [String: V4L2ControlInfo]

    public init(path: String, system: any VideoDeviceSystem = LinuxVideoDeviceSystem()) throws(CaptureError) {
        let device = try V4L2Device(path: path, system: system)
        controls = Dictionary(try device.controls().map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        self.device = Protected(device)
    }

    public func range(of key: String) -> (minimum: Int64, maximum: Int64, step: Int64)? {
        controls[key].map { ($0.minimum, $0.maximum, Int64(clamping: max($0.step, 1))) }
    }

    public func set(_ key: String, to value: Int64) throws {
        guard let control = controls[key] else {
            throw CaptureError.call(path: "camera", request: "control \(key)", .invalidArgument)
        }
        try device.withLock { device throws in
            guard let device else { throw CaptureError.disconnected(path: "camera") }
            try device.setControl(control.id, to: value)
        }
    }

    public func value(of key: String) -> Int64? {
        guard let control = controls[key] else { return nil }
        return device.withLock { try? $0?.value(ofControl: control.id) }
    }

    public func close() {
        device.withLock {
            $0?.close()
            $0 = nil
        }
    }
}
