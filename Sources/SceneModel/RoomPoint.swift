import Foundation

/// A point in a room, metres: x across, y deep (the camera looks along +y at yaw 0), z up.
public struct RoomPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public func distance(to other: RoomPoint) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        let dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The point `distance` metres away at `yaw` (radians, positive towards +x) from this one,
    /// at `height` above the floor.
    public func toward(yaw: Double, distance: Double, height: Double) -> RoomPoint {
        RoomPoint(x: x + distance * sin(yaw), y: y + distance * cos(yaw), z: height)
    }
}
