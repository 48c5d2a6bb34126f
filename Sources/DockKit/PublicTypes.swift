import DockCore
// Vector3D, Rotation3D, Angle2D, RotationAxis3D and EulerAngles: `import DockKit` brings them,
// and so does `import Spatial`, as in Apple's programs (the same module, so never ambiguous).
@_exported import Spatial

// The value types a DockKit client names, defined in the core and offered here, so that
// `import DockKit` is all a client needs.
public typealias CameraIntrinsics = DockCore.CameraIntrinsics
public typealias DockKitError = DockCore.DockKitError
/// A captured image with its sequence number and capture time (DockKit's CMSampleBuffer).
public typealias Frame = DockCore.Frame
/// A frame's sequence number and capture time; its pixel layout.
public typealias FrameStamp = DockCore.FrameStamp
public typealias PixelFormat = DockCore.PixelFormat
public typealias MonotonicInstant = DockCore.MonotonicInstant

extension DockAccessory {
    /// One axis's travel (radians) and top speed (rad/s).
    public typealias Limit = AxisLimit
    /// Apple's path for the identifier's category.
    public typealias Category = Identifier.Category
}

extension MotionLimits {
    /// Apple's path: `DockAccessory.Limits.Limit`.
    public typealias Limit = AxisLimit
}
