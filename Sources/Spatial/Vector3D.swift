/// Angles or angular rates per axis, radians: x = pitch (positive tilts down),
/// y = yaw (positive pans right), z = roll.
public struct Vector3D: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init() { self.init(x: 0, y: 0, z: 0) }

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3D()

    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    public static func + (a: Vector3D, b: Vector3D) -> Vector3D { Vector3D(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    public static func - (a: Vector3D, b: Vector3D) -> Vector3D { Vector3D(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    public static func * (a: Vector3D, s: Double) -> Vector3D { Vector3D(x: a.x * s, y: a.y * s, z: a.z * s) }

    public var description: String {
        func f(_ v: Double) -> String { String((v * 10000).rounded() / 10000) }
        return "(x: \(f(x)), y: \(f(y)), z: \(f(z)))"
    }
}
