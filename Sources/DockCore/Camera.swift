import Foundation

/// Pinhole intrinsics in pixels of `referenceDimensions` (top-left origin).
public struct CameraIntrinsics: Hashable, Sendable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double

    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }

    /// Square pixels, principal point at the centre, the given horizontal field of view (radians).
    public init(horizontalFieldOfView fov: Double, size: PixelSize) {
        let f = Double(size.width) / 2 / tan(fov / 2)
        self.init(fx: f, fy: f, cx: Double(size.width) / 2, cy: Double(size.height) / 2)
    }

    public var horizontalFieldOfView: Double { 2 * atan(cx / fx) }

    /// The same camera described in pixels of an image scaled from `from` to `to`.
    public func scaled(from: PixelSize, to: PixelSize) -> CameraIntrinsics {
        let sx = Double(to.width) / Double(from.width)
        let sy = Double(to.height) / Double(from.height)
        return CameraIntrinsics(fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy)
    }

    /// The same camera with its focal length multiplied by `factor` (an optical zoom: the
    /// principal point stays where it is).
    public func zoomed(by factor: Double) -> CameraIntrinsics {
        CameraIntrinsics(fx: fx * factor, fy: fy * factor, cx: cx, cy: cy)
    }

    /// The unit-depth ray through a pixel (camera frame: x right, y down, z forward).
    public func ray(through p: PixelPoint) -> Vector3D {
        Vector3D(x: (p.x - cx) / fx, y: (p.y - cy) / fy, z: 1)
    }

    /// The pixel a camera-frame direction projects to, nil behind the camera.
    public func project(_ d: Vector3D) -> PixelPoint? {
        guard d.z > 1e-9 else { return nil }
        return PixelPoint(x: fx * d.x / d.z + cx, y: fy * d.y / d.z + cy)
    }

    /// 3×3 row-major matrix K.
    public var matrix: [Double] { [fx, 0, cx, 0, fy, cy, 0, 0, 1] }
}

/// How the frame's pixels relate to the upright image (DockKit's CameraOrientation).
public enum CameraOrientation: Sendable, Hashable {
    case corrected, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown, unknown
}

/// What the motor controller needs to turn a rect into angles: the image size the rects and
/// intrinsics refer to, and the intrinsics themselves.
public struct CameraInformation: Sendable, Hashable {
    public var referenceDimensions: PixelSize
    public var intrinsics: CameraIntrinsics
    public var orientation: CameraOrientation

    public init(
        referenceDimensions: PixelSize, intrinsics: CameraIntrinsics, orientation: CameraOrientation = .corrected
    ) {
        self.referenceDimensions = referenceDimensions
        self.intrinsics = intrinsics
        self.orientation = orientation
    }

    /// A camera with the given horizontal field of view (degrees) and square pixels.
    public init(size: PixelSize, horizontalFieldOfViewDegrees degrees: Double) {
        self.init(
            referenceDimensions: size,
            intrinsics: CameraIntrinsics(horizontalFieldOfView: degrees * .pi / 180, size: size))
    }
}
