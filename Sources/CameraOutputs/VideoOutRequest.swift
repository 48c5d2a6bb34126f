import Capture
import DockCore

/// What `--video-out` asks for: the loopback node, and the output size (the camera's when nil).
public struct VideoOutRequest: Sendable, Hashable {
    public var device: String
    public var size: PixelSize?

    public init(device: String, size: PixelSize? = nil) {
        self.device = device
        self.size = size
    }

    /// Opens the device for a camera of `cameraSize` at `frameRate` and starts its writer; a
    /// missing device, one that is not a loopback, a refused format or a size of another shape
    /// is refused here, before anything moves.
    public func open(
        cameraSize: PixelSize, frameRate: Double, clock: any MonotonicClock,
        system: any VideoDeviceSystem = LinuxVideoDeviceSystem(), onError: @escaping @Sendable (String) -> Void
    ) throws(VideoOutputError) -> VideoOutputSink {
        let size = size ?? cameraSize
        // The crop keeps the camera's shape, so the output must too (within a pixel's rounding).
        let aspect = Double(size.width) / Double(size.height)
        let cameraAspect = Double(cameraSize.width) / Double(cameraSize.height)
        guard abs(aspect / cameraAspect - 1) < 0.01 else { throw .shapeMismatch(asked: size, camera: cameraSize) }
        let output = try V4L2VideoOutput(path: device, size: size, frameRate: frameRate, system: system)
        return VideoOutputSink(output: output, clock: clock, onError: onError)
    }
}
