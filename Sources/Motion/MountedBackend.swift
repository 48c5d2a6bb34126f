import DockCore

/// Which way each axis of a head turns the camera, as mounted: a head hung upside down under a
/// shelf, or a controller configured the other way, turns the camera right when told to turn
/// left. The engine works in the camera's directions (yaw positive to the right, pitch positive
/// down); `MountedBackend` turns them into the device's.
public struct MountDirections: Sendable, Hashable {
    public var panInverted: Bool
    public var tiltInverted: Bool

    public init(panInverted: Bool = false, tiltInverted: Bool = false) {
        self.panInverted = panInverted
        self.tiltInverted = tiltInverted
    }

    public static let normal = MountDirections()

    public var isNormal: Bool { self == .normal }

    /// +1 or −1 per axis (x pitch, y yaw; roll kept).
    var signs: Vector3D { Vector3D(x: tiltInverted ? -1 : 1, y: panInverted ? -1 : 1, z: 1) }

    /// A vector of the device's turned into the camera's directions, or back (the map is its own inverse).
    public func camera(_ v: Vector3D) -> Vector3D {
        let s = signs
        return Vector3D(x: v.x * s.x, y: v.y * s.y, z: v.z * s.z)
    }
}

/// How far the camera turns per unit a head reads, per axis: 1 for a head whose units are
/// degrees as it says; a VISCA or Pelco model whose position unit differs from the configured
/// one, or a geared head, turns the camera more or less. `dockctl calibrate` measures it.
public struct AxisScales: Sendable, Hashable {
    public var pan: Double
    public var tilt: Double

    public init(pan: Double = 1, tilt: Double = 1) {
        self.pan = pan
        self.tilt = tilt
    }

    public static let exact = AxisScales()
    public var isExact: Bool { self == .exact }

    /// A vector in the head's units turned into the camera's angles (x pitch, y yaw).
    public func camera(_ v: Vector3D) -> Vector3D { Vector3D(x: v.x * tilt, y: v.y * pan, z: v.z) }
    /// A vector of the camera's angles turned into the head's units.
    public func device(_ v: Vector3D) -> Vector3D { Vector3D(x: v.x / tilt, y: v.y / pan, z: v.z) }
}

/// A motor device seen in the camera's directions and angles: velocities sent and poses read are
/// flipped on the inverted axes and scaled by the axes' units, and so are the device's position
/// limits and top speeds. A command latency measured on the head (`dockctl calibrate`) replaces
/// the device's own figure.
public final class MountedBackend: MotorBackend {
    public let device: any MotorBackend
    public let directions: MountDirections
    public let scales: AxisScales
    public let capabilities: MotorCapabilities

    public init(
        _ device: any MotorBackend, directions: MountDirections, scales: AxisScales = .exact,
        commandLatency: Double? = nil
    ) {
        self.device = device
        self.directions = directions
        self.scales = scales
        var capabilities = device.capabilities
        if directions.panInverted { capabilities.limits.yaw = capabilities.limits.yaw.map(Self.mirrored) }
        if directions.tiltInverted { capabilities.limits.pitch = capabilities.limits.pitch.map(Self.mirrored) }
        capabilities.limits.yaw = capabilities.limits.yaw.map { Self.scaled($0, by: scales.pan) }
        capabilities.limits.pitch = capabilities.limits.pitch.map { Self.scaled($0, by: scales.tilt) }
        capabilities.speedStep = capabilities.speedStep.map { $0 * scales.pan }
        if let commandLatency { capabilities.commandLatency = commandLatency }
        self.capabilities = capabilities
    }

    public var name: String { device.name }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        try device.setVelocity(directions.camera(scales.device(velocity)), at: time)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        var state = device.motionState(at: time)
        state.angularPositions = scales.camera(directions.camera(state.angularPositions))
        state.angularVelocities = scales.camera(directions.camera(state.angularVelocities))
        return state
    }

    public func pollFeedback(at time: MonotonicInstant) { device.pollFeedback(at: time) }

    public var batteryVolts: Double? { device.batteryVolts }

    public func feedbackSilence(at time: MonotonicInstant) -> Double? { device.feedbackSilence(at: time) }

    static func scaled(_ limit: AxisLimit, by scale: Double) -> AxisLimit {
        guard scale != 1, scale > 0 else { return limit }
        return
            (try? AxisLimit(
                positionRange: limit.positionRange.lowerBound * scale..<limit.positionRange.upperBound * scale,
                maximumSpeed: limit.maximumSpeed * scale)) ?? limit
    }

    static func mirrored(_ limit: AxisLimit) -> AxisLimit {
        // A range mirrored about zero is as valid as the one it came from.
        (try? AxisLimit(
            positionRange: -limit.positionRange.upperBound..<(-limit.positionRange.lowerBound),
            maximumSpeed: limit.maximumSpeed)) ?? limit
    }
}
