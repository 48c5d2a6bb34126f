import Foundation

/// Where the axes are, how fast they turn, and when (DockKit's `DockAccessory.MotionState`).
public struct AccessoryMotionState: Sendable {
    public var angularPositions: Vector3D
    public var angularVelocities: Vector3D
    /// When the state was read: seconds since 1970 (UNIX epoch), as DockKit gives it.
    public var timestamp: TimeInterval
    /// Set when the device could not report; positions are then the commanded ones.
    public var error: (any Error)?

    package init(angularPositions: Vector3D, angularVelocities: Vector3D, timestamp: TimeInterval, error: (any Error)?)
    {
        self.angularPositions = angularPositions
        self.angularVelocities = angularVelocities
        self.timestamp = timestamp
        self.error = error
    }
}

/// DockKit's canned motions (`DockAccessory.Animation`).
public enum AccessoryAnimation: Hashable, Sendable {
    case yes, no, wakeup, kapow
}

/// A device without position feedback reports what it was told; motion states carry this.
public struct CommandedStateOnly: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the device has no position feedback; these are the commanded values" }
}

/// Where the framed subject sits within the region of interest (DockKit's
/// `DockAccessory.FramingMode`).
public enum FramingMode: Hashable, Sendable {
    case automatic, center, left, right

    /// Where the subject's centre is placed within the region of interest, unit coordinates,
    /// lower-left origin.
    package var framingPoint: (x: Double, y: Double) {
        switch self {
        case .automatic, .center: (0.5, 0.5)
        case .left: (1.0 / 3.0, 0.5)
        case .right: (2.0 / 3.0, 0.5)
        }
    }
}
