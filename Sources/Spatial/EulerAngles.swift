import Foundation

/// Three turns about the axes, applied in `order`, as Apple's Spatial names them. The head's
/// own angles are `.yxz`: yaw about the vertical (y), then pitch (x, positive tilts down), then
/// roll about the optical axis (z).
public struct EulerAngles: Hashable, Sendable {
    public enum Order: Hashable, Sendable, CaseIterable {
        case xyz, xzy, yxz, yzx, zxy, zyx
    }

    public var x: Angle2D
    public var y: Angle2D
    public var z: Angle2D
    public var order: Order

    public init(x: Angle2D, y: Angle2D, z: Angle2D, order: Order) {
        self.x = x
        self.y = y
        self.z = z
        self.order = order
    }
}

extension Rotation3D {
    /// The rotation the turns make, the first in `order` applied outermost (q = first · second · third).
    public init(eulerAngles angles: EulerAngles) {
        let turn = { (axis: RotationAxis3D, angle: Angle2D) in Rotation3D(angle: angle, axis: axis) }
        let (a, b, c): (Rotation3D, Rotation3D, Rotation3D) =
            switch angles.order {
            case .xyz: (turn(.x, angles.x), turn(.y, angles.y), turn(.z, angles.z))
            case .xzy: (turn(.x, angles.x), turn(.z, angles.z), turn(.y, angles.y))
            case .yxz: (turn(.y, angles.y), turn(.x, angles.x), turn(.z, angles.z))
            case .yzx: (turn(.y, angles.y), turn(.z, angles.z), turn(.x, angles.x))
            case .zxy: (turn(.z, angles.z), turn(.x, angles.x), turn(.y, angles.y))
            case .zyx: (turn(.z, angles.z), turn(.y, angles.y), turn(.x, angles.x))
            }
        self = a * b * c
    }

    /// The product: `self` applied after `other` (q = self · other).
    public static func * (a: Rotation3D, b: Rotation3D) -> Rotation3D {
        Rotation3D(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }
}
