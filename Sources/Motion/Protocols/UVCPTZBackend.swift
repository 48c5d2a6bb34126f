import DockCore
import Foundation

/// The pan/tilt controls of a UVC camera (or any camera with V4L2-style controls), as the
/// capture layer exposes them. Keys are V4L2 control keys: "pan_speed", "pan_absolute", ….
public protocol CameraControlPort: AnyObject, Sendable {
    func range(of key: String) -> (minimum: Int64, maximum: Int64, step: Int64)?
    func set(_ key: String, to value: Int64) throws
    /// The control's current value; nil when the camera has no such control or cannot say.
    func value(of key: String) -> Int64?
}

/// A PTZ webcam driven through its UVC controls. Cameras with pan_speed/tilt_speed turn at a
/// speed; others get absolute targets (arc-seconds) integrated from the commanded rates. Every
/// value honours the camera's reported range and step. UVC cameras report their target, not
/// where they are, so the motion state is commanded-only. V4L2 tilt is positive up, the head's
/// pitch positive down: the sign is flipped here.
public final class UVCPTZBackend: MotorBackend {
    public enum Mode: Sendable, Equatable { case speed, absolute }

    public let name: String
    public let capabilities: MotorCapabilities
    public let mode: Mode
    private let port: any CameraControlPort
    private let pan: (minimum: Int64, maximum: Int64, step: Int64)
    private let tilt: (minimum: Int64, maximum: Int64, step: Int64)
    /// Speed mode: the rate (rad/s) a control value of `maximum` stands for.
    private let maximumSpeed: Double

    private struct State: Sendable {
        /// The integrated pose, unquantised (small rates must add up across ticks).
        var pose = Vector3D()
        /// The pose the camera was last told, on its step grid.
        var commandedPose = Vector3D()
        var velocity = Vector3D()
        var time: MonotonicInstant?
        var lastSent: (Int64, Int64)?
    }
    private let state = Protected(State())

    public static let arcSecondsPerRadian = 180 / Double.pi * 3600

    public init(name: String, port: any CameraControlPort, maximumSpeed: Double = 60 * Double.pi / 180)
        throws(LinkError)
    {
        self.name = name
        self.port = port
        self.maximumSpeed = maximumSpeed
        if let p = port.range(of: "pan_speed"), let t = port.range(of: "tilt_speed") {
            (mode, pan, tilt) = (.speed, p, t)
        } else if let p = port.range(of: "pan_absolute"), let t = port.range(of: "tilt_absolute") {
            (mode, pan, tilt) = (.absolute, p, t)
        } else {
            throw .noAnswer(
                name,
                what: "pan/tilt controls (the camera has neither pan_speed/tilt_speed nor pan_absolute/tilt_absolute)")
        }
        let a = Self.arcSecondsPerRadian
        let yaw =
            mode == .absolute
            ? try? AxisLimit(
                positionRange: Double(pan.minimum) / a..<Double(pan.maximum) / a, maximumSpeed: maximumSpeed)
            : try? AxisLimit(positionRange: -Double.pi..<Double.pi, maximumSpeed: maximumSpeed)
        let pitch =
            mode == .absolute
            ? try? AxisLimit(
                positionRange: -Double(tilt.maximum) / a..<(-Double(tilt.minimum) / a), maximumSpeed: maximumSpeed)
            : try? AxisLimit(positionRange: -Double.pi / 2..<Double.pi / 2, maximumSpeed: maximumSpeed)
        // UVC controls go through the camera's firmware between frames: about a frame period
        // or two at 30 fps before the head reacts (no published figure; an estimate).
        capabilities = MotorCapabilities(
            limits: MotionLimits(yaw: yaw, pitch: pitch, roll: nil), hasPositionFeedback: false,
            commandLatency: 0.08)
    }

    /// A value inside the range, on the step grid.
    static func quantise(_ value: Double, _ r: (minimum: Int64, maximum: Int64, step: Int64)) -> Int64 {
        let step = Double(max(r.step, 1))
        let snapped = Int64((value - Double(r.minimum)) / step) * max(r.step, 1) + r.minimum
        let rounded = (value - Double(snapped)) * 2 >= step ? snapped + max(r.step, 1) : snapped
        return min(max(rounded, r.minimum), r.maximum)
    }

    public func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
        let values: (Int64, Int64) = state.withLock { s in
            if let last = s.time {
                let dt = min(max(time.seconds(since: last), 0), 0.1)
                s.pose = s.pose + s.velocity * dt
            }
            s.time = time
            s.velocity = velocity
            switch mode {
            case .speed:
                return (
                    Self.quantise(velocity.y / maximumSpeed * Double(pan.maximum), pan),
                    Self.quantise(-velocity.x / maximumSpeed * Double(tilt.maximum), tilt)
                )
            case .absolute:
                let a = Self.arcSecondsPerRadian
                let p = Self.quantise(s.pose.y * a, pan)
                let t = Self.quantise(-s.pose.x * a, tilt)
                // The camera stops at the ends of its range: so does the integration.
                s.pose = Vector3D(
                    x: min(max(s.pose.x, -Double(tilt.maximum) / a), -Double(tilt.minimum) / a),
                    y: min(max(s.pose.y, Double(pan.minimum) / a), Double(pan.maximum) / a), z: 0)
                s.commandedPose = Vector3D(x: -Double(t) / a, y: Double(p) / a, z: 0)
                return (p, t)
            }
        }
        let changed = state.withLock { s -> Bool in
            defer { s.lastSent = values }
            return s.lastSent.map { $0 != values } ?? true
        }
        guard changed else { return }
        let keys = mode == .speed ? ("pan_speed", "tilt_speed") : ("pan_absolute", "tilt_absolute")
        try port.set(keys.0, to: values.0)
        try port.set(keys.1, to: values.1)
    }

    public func motionState(at time: MonotonicInstant) -> MotionState {
        state.withLock { s in
            var pose = mode == .absolute ? s.commandedPose : s.pose
            if let last = s.time, mode == .speed {
                pose = pose + s.velocity * min(max(time.seconds(since: last), 0), 0.1)
            }
            return MotionState(angularPositions: pose, angularVelocities: s.velocity, time: time, isCommandedOnly: true)
        }
    }
}
