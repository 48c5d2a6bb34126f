/// The travel and speed of one axis (radians, rad/s). A top speed of 0 holds the axis still
/// (Apple refuses only negative ones).
public struct AxisLimit: Hashable, Sendable {
    public let positionRange: Range<Double>
    public let maximumSpeed: Double

    public init(positionRange: Range<Double>, maximumSpeed: Double) throws(DockKitError) {
        guard positionRange.lowerBound.isFinite, positionRange.upperBound.isFinite,
            !positionRange.isEmpty, maximumSpeed.isFinite, maximumSpeed >= 0
        else { throw .invalidParameter }
        self.positionRange = positionRange
        self.maximumSpeed = maximumSpeed
    }

    public func clampPosition(_ value: Double) -> Double {
        min(max(value, positionRange.lowerBound), positionRange.upperBound)
    }
}

/// Per-axis limits; nil means the device has no such axis.
public struct MotionLimits: Hashable, Sendable {
    public var yaw: AxisLimit?
    public var pitch: AxisLimit?
    public var roll: AxisLimit?

    public init(yaw: AxisLimit?, pitch: AxisLimit?, roll: AxisLimit?) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }
}
