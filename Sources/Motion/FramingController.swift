import Foundation
import DockCore

public struct FramingConfiguration: Sendable, Hashable {
    /// A subject whose angular error stays inside this band causes no motion (radians).
    public var deadBand = 2.0 * .pi / 180
    /// Once moving, the axis keeps correcting until the error is inside this band.
    public var settleBand = 0.6 * .pi / 180
    /// Proportional gain: rad/s of command per radian of error.
    public var gain = 3.0
    /// Larger errors than this get extra gain to catch up (radians).
    public var catchUpThreshold = 12.0 * .pi / 180
    public var catchUpGain = 1.6
    /// The controller's own caps, below the device's.
    public var maximumSpeed = 1.5
    public var maximumAcceleration = 8.0

    public init() {}
}

/// The control law: the chosen subject's offset from the framing point becomes an angular
/// error through the intrinsics, then a rate command with a dead band (with hysteresis so a
/// still subject never starts the motors), proportional gain, catch-up boost and slew limit.
/// Pure: the caller passes time, target and pose.
public struct FramingController: Sendable {
    public let configuration: FramingConfiguration
    private var movingYaw = false
    private var movingPitch = false
    private var lastCommand = Vector3D()
    private var lastTime: MonotonicInstant?

    public init(configuration: FramingConfiguration = FramingConfiguration()) {
        self.configuration = configuration
    }

    /// The rate command for this tick. `target` nil (nothing to frame) brings the axes to rest.
    /// `framingPoint` is where the subject's centre should sit, unit coordinates, lower-left origin.
    public mutating func update(target: NormalizedRect?, camera: CameraInformation, pose: Vector3D,
                                framingPoint: (x: Double, y: Double) = (0.5, 0.5),
                                at time: MonotonicInstant) -> Vector3D {
        let dt = lastTime.map { min(max(time.seconds(since: $0), 0), 0.2) } ?? 0
        lastTime = time
        var wanted = Vector3D()
        if let target {
            let coordinates = ImageCoordinates(size: camera.referenceDimensions)
            let subject = coordinates.pixels(x: target.midX, y: target.midY)
            let aim = coordinates.pixels(x: framingPoint.x, y: framingPoint.y)
            // Error of the subject relative to the framing point, both measured from the centre.
            let toSubject = AngularError.toCenter(subject, intrinsics: camera.intrinsics, pitch: pose.x)
            let toAim = AngularError.toCenter(aim, intrinsics: camera.intrinsics, pitch: pose.x)
            wanted.y = axisRate(error: toSubject.yaw - toAim.yaw, moving: &movingYaw)
            wanted.x = axisRate(error: toSubject.pitch - toAim.pitch, moving: &movingPitch)
        } else {
            movingYaw = false
            movingPitch = false
        }
        let step = configuration.maximumAcceleration * dt
        func slew(_ from: Double, _ to: Double) -> Double { dt == 0 ? to : from + min(max(to - from, -step), step) }
        lastCommand = Vector3D(x: slew(lastCommand.x, wanted.x), y: slew(lastCommand.y, wanted.y), z: 0)
        return lastCommand
    }

    private func axisRate(error: Double, moving: inout Bool) -> Double {
        let magnitude = abs(error)
        if moving { if magnitude < configuration.settleBand { moving = false } } else if magnitude > configuration.deadBand { moving = true }
        guard moving else { return 0 }
        var rate = configuration.gain * error
        if magnitude > configuration.catchUpThreshold {
            rate += configuration.gain * (configuration.catchUpGain - 1) * (error - configuration.catchUpThreshold * (error > 0 ? 1 : -1))
        }
        return min(max(rate, -configuration.maximumSpeed), configuration.maximumSpeed)
    }
}
