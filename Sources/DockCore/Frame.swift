/// Identifies a frame: the source's sequence number and the monotonic time it was captured.
/// Every result derived from a frame carries its stamp, so latency is measured from capture.
public struct FrameStamp: Hashable, Sendable, CustomStringConvertible {
    public var sequence: UInt64
    public var time: MonotonicInstant

    public init(sequence: UInt64, time: MonotonicInstant) {
        self.sequence = sequence
        self.time = time
    }

    public var description: String { "#\(sequence)@\(time)" }
}

public enum PixelFormat: Sendable, Equatable {
    case bgr
    case gray

    public var channels: Int { self == .bgr ? 3 : 1 }
}

/// An 8-bit image with a top-left origin and tightly packed rows, and the stamp of its capture.
public struct Frame: Sendable {
    public var stamp: FrameStamp
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public var pixels: [UInt8]
    /// The intrinsics of the camera that took it, at its size, when the source knows them
    /// (capture metadata: they travel with the frame, not on a side channel).
    public var camera: CameraInformation?
    /// Where the head pointed when the frame was taken, when a rig knows it (a simulated camera
    /// renders at this pose; a live rig reads it from the motor device's feedback).
    public var headPose: Vector3D?
    /// Where a simulated camera truly pointed when its picture was rendered: the pose its
    /// ground truth is taken at, which differs from `headPose` on a head mounted other than
    /// configured. nil for a real camera.
    public var truePose: Vector3D?
    /// A finer picture of the same instant, when the frame was made small for detection
    /// (see `FrameDetail`).
    public var detail: (any FrameDetail)?

    public init(stamp: FrameStamp, width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "a frame has a positive size")
        precondition(pixels.count == width * height * format.channels, "pixel count matches the size")
        self.stamp = stamp
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// A frame filled with one gray level.
    public init(stamp: FrameStamp, width: Int, height: Int, format: PixelFormat, fill: UInt8 = 0) {
        self.init(
            stamp: stamp, width: width, height: height, format: format,
            pixels: [UInt8](repeating: fill, count: width * height * format.channels))
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var bytesPerRow: Int { width * format.channels }
}

public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }

    /// Parses "1280x720".
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }
}
