import DockCore
import Foundation
import Imaging

/// The camera on the simulated gimbal: renders what a camera with `viewIntrinsics` would see at
/// a yaw/pitch pose inside a wider world image taken from the gimbal's pivot (`worldIntrinsics`,
/// the pose yaw = pitch = 0 looking at the world's principal point). A pure rotation between two
/// pinhole cameras is the homography K_world · R(pose) · K_view⁻¹, so this is an exact
/// perspective remap, not a crop.
public struct VirtualCamera: Sendable {
    public let worldSize: PixelSize
    public let worldIntrinsics: CameraIntrinsics
    public let viewSize: PixelSize
    public let viewIntrinsics: CameraIntrinsics

    public init(
        worldSize: PixelSize, worldIntrinsics: CameraIntrinsics, viewSize: PixelSize, viewIntrinsics: CameraIntrinsics
    ) {
        self.worldSize = worldSize
        self.worldIntrinsics = worldIntrinsics
        self.viewSize = viewSize
        self.viewIntrinsics = viewIntrinsics
    }

    public var cameraInformation: CameraInformation {
        CameraInformation(referenceDimensions: viewSize, intrinsics: viewIntrinsics)
    }

    /// The same camera with its lens zoomed by `factor` (the focal length multiplied).
    public func zoomed(by factor: Double) -> VirtualCamera {
        guard factor != 1 else { return self }
        return VirtualCamera(
            worldSize: worldSize, worldIntrinsics: worldIntrinsics, viewSize: viewSize,
            viewIntrinsics: viewIntrinsics.zoomed(by: factor))
    }

    /// Rotation from the gimbal's camera frame to the world camera frame: pan (about y, positive
    /// right), then tilt riding on it (about x, positive down). Row-major 3×3.
    static func rotation(_ pose: Vector3D) -> [Double] {
        let (cy, sy) = (cos(pose.y), sin(pose.y))
        let (cp, sp) = (cos(pose.x), sin(pose.x))
        let pan: [Double] = [cy, 0, sy, 0, 1, 0, -sy, 0, cy]
        let tilt: [Double] = [1, 0, 0, 0, cp, sp, 0, -sp, cp]
        return multiply(pan, tilt)
    }

    /// View pixel → world pixel.
    public func homography(pose: Vector3D) -> [Double] {
        let k = viewIntrinsics
        let kInverse: [Double] = [1 / k.fx, 0, -k.cx / k.fx, 0, 1 / k.fy, -k.cy / k.fy, 0, 0, 1]
        return Self.multiply(Self.multiply(worldIntrinsics.matrix, Self.rotation(pose)), kInverse)
    }

    public func render(_ world: Frame, pose: Vector3D, stamp: FrameStamp? = nil) throws(ImagingError) -> Frame {
        try world.warped(to: viewSize, homography: homography(pose: pose), border: 16, stamp: stamp ?? world.stamp)
    }

    /// Where a world pixel appears in the view at `pose` (nil when behind the camera).
    public func project(worldPoint p: PixelPoint, pose: Vector3D) -> PixelPoint? {
        let worldRay = worldIntrinsics.ray(through: p)
        let r = Self.rotation(pose)
        // R is orthonormal: its transpose takes world-frame directions into the view's frame.
        let d = Vector3D(
            x: r[0] * worldRay.x + r[3] * worldRay.y + r[6] * worldRay.z,
            y: r[1] * worldRay.x + r[4] * worldRay.y + r[7] * worldRay.z,
            z: r[2] * worldRay.x + r[5] * worldRay.y + r[8] * worldRay.z)
        return viewIntrinsics.project(d)
    }

    /// A world rectangle in view pixels: the bounding box of its projected corners.
    public func project(worldRect r: PixelRect, pose: Vector3D) -> PixelRect? {
        let corners = [
            PixelPoint(x: r.x, y: r.y), PixelPoint(x: r.maxX, y: r.y),
            PixelPoint(x: r.x, y: r.maxY), PixelPoint(x: r.maxX, y: r.maxY),
        ]
        let projected = corners.compactMap { project(worldPoint: $0, pose: pose) }
        guard projected.count == 4 else { return nil }
        let xs = projected.map(\.x)
        let ys = projected.map(\.y)
        return PixelRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The pose that centres a world pixel in the view.
    public func pose(centering p: PixelPoint) -> Vector3D {
        let d = worldIntrinsics.ray(through: p)
        let yaw = atan2(d.x, d.z)
        let pitch = atan2(d.y, hypot(d.x, d.z))
        return Vector3D(x: pitch, y: yaw, z: 0)
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { out[i * 3 + j] = (0..<3).reduce(0) { $0 + a[i * 3 + $1] * b[$1 * 3 + j] } } }
        return out
    }
}
