import DockCore
import Foundation

/// The rotation that would bring a pixel to the image centre, exact for a pan-tilt head whose
/// tilt axis rides on the pan axis.
public enum AngularError {
    /// Yaw and pitch (radians) from the current pose to the pose that centres `point`.
    /// `pitch` is the head's current pitch (positive = tilted down).
    public static func toCenter(_ point: PixelPoint, intrinsics: CameraIntrinsics, pitch: Double = 0) -> (
        yaw: Double, pitch: Double
    ) {
        let ray = intrinsics.ray(through: point)
        // The ray in the frame of the pan axis (tilt undone): rotate by +pitch about x.
        let c = cos(pitch)
        let s = sin(pitch)
        let y = c * ray.y + s * ray.z
        let z = -s * ray.y + c * ray.z
        let yaw = atan2(ray.x, z)
        let targetPitch = atan2(y, hypot(ray.x, z))
        return (yaw, targetPitch - pitch)
    }

    /// The rotation from `aim` to `point`, two pixels of one picture: how far the head would
    /// turn for the point to sit where the aim is (positive yaw: right of it; positive pitch:
    /// below it). The centring error the dock reports, by the rule the control law steers by.
    public static func between(
        _ point: PixelPoint, _ aim: PixelPoint, intrinsics: CameraIntrinsics, pitch: Double = 0
    ) -> (yaw: Double, pitch: Double) {
        let toPoint = toCenter(point, intrinsics: intrinsics, pitch: pitch)
        let toAim = toCenter(aim, intrinsics: intrinsics, pitch: pitch)
        return (toPoint.yaw - toAim.yaw, toPoint.pitch - toAim.pitch)
    }
}
