import Foundation

/// An orientation as a unit quaternion (w, x, y, z), where the Spatial framework is missing.
/// Euler angles follow the head's axes: yaw about the vertical, then pitch (positive tilts
/// down), then roll.
public struct Rotation3D: Hashable, Sendable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public static let identity = Rotation3D(w: 1, x: 0, y: 0, z: 0)

    public init(w: Double, x: Double, y: Double, z: Double) {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        (self.w, self.x, self.y, self.z) = n > 0 ? (w / n, x / n, y / n, z / n) : (1, 0, 0, 0)
    }

    /// A turn by `angle` about `axis` (any length but zero; normalized here).
    public init(angle: Angle2D, axis: RotationAxis3D) {
        let length = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
        guard length > 0 else {
            self = .identity
            return
        }
        let s = sin(angle.radians / 2) / length
        self.init(w: cos(angle.radians / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// From the head's angles: `angles.y` yaw, `angles.x` pitch, `angles.z` roll (radians).
    public init(eulerAngles angles: Vector3D) {
        let (cy, sy) = (cos(angles.y / 2), sin(angles.y / 2))
        let (cp, sp) = (cos(angles.x / 2), sin(angles.x / 2))
        let (cr, sr) = (cos(angles.z / 2), sin(angles.z / 2))
        // q = yaw(about y) · pitch(about x) · roll(about z)
        self.init(
            w: cy * cp * cr + sy * sp * sr,
            x: cy * sp * cr + sy * cp * sr,
            y: sy * cp * cr - cy * sp * sr,
            z: cy * cp * sr - sy * sp * cr)
    }

    /// The head's angles for this orientation (inverse of `init(eulerAngles:)`).
    public var eulerAngles: Vector3D {
        let pitch = asin(max(-1, min(1, 2 * (w * x - y * z))))
        let yaw = atan2(2 * (w * y + x * z), 1 - 2 * (x * x + y * y))
        let roll = atan2(2 * (w * z + x * y), 1 - 2 * (x * x + z * z))
        return Vector3D(x: pitch, y: yaw, z: roll)
    }
}

/// An angle, where the Spatial framework is missing.
public struct Angle2D: Hashable, Sendable {
    public var radians: Double
    public var degrees: Double { radians * 180 / .pi }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { radians = degrees * .pi / 180 }
    public static func radians(_ value: Double) -> Angle2D { Angle2D(radians: value) }
    public static func degrees(_ value: Double) -> Angle2D { Angle2D(degrees: value) }
}

/// An axis to turn about, where the Spatial framework is missing. In the head's frame: y is
/// the vertical (yaw), x the horizontal (pitch), z the optical axis (roll).
public struct RotationAxis3D: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
    public static let x = RotationAxis3D(x: 1, y: 0, z: 0)
    public static let y = RotationAxis3D(x: 0, y: 1, z: 0)
    public static let z = RotationAxis3D(x: 0, y: 0, z: 1)
}
