import DockCore
import Motion

/// What a control law sees at one tick.
public struct ControlInput: Sendable {
    /// The rect to frame (unit, lower-left origin); nil when there is nothing current.
    public var target: NormalizedRect?
    /// Capture time of the frame the target was seen in.
    public var observedAt: MonotonicInstant?
    public var camera: CameraInformation
    /// The axes now (radians) and their rates (rad/s).
    public var pose: Vector3D
    public var velocity: Vector3D
    /// The axes when the target's frame was captured, from the pose history; nil = unknown.
    public var poseAtObservation: Vector3D?
    /// Where the subject's centre should sit, unit coordinates, lower-left origin.
    public var framingPoint: (x: Double, y: Double)
    public var time: MonotonicInstant
    /// The device's latency, speed steps and acceleration; nil = not known.
    public var device: MotorCapabilities?
    /// Whether the law may move the head to look for a lost subject (system tracking does; a
    /// client's own tracking, which may simply have nothing to show, does not).
    public var searchWhenLost: Bool

    public init(
        target: NormalizedRect?, observedAt: MonotonicInstant? = nil, camera: CameraInformation,
        pose: Vector3D = Vector3D(),
        velocity: Vector3D = Vector3D(), poseAtObservation: Vector3D? = nil,
        framingPoint: (x: Double, y: Double) = (0.5, 0.5), time: MonotonicInstant,
        device: MotorCapabilities? = nil, searchWhenLost: Bool = false
    ) {
        self.device = device
        self.searchWhenLost = searchWhenLost
        self.poseAtObservation = poseAtObservation
        self.target = target
        self.observedAt = observedAt
        self.camera = camera
        self.pose = pose
        self.velocity = velocity
        self.framingPoint = framingPoint
        self.time = time
    }

    /// Yaw and pitch (radians) from the framing point to the target, as seen in the frame.
    public var angularError: (yaw: Double, pitch: Double)? {
        guard let target else { return nil }
        let coordinates = ImageCoordinates(size: camera.referenceDimensions)
        let subject = AngularError.toCenter(
            coordinates.pixels(x: target.midX, y: target.midY), intrinsics: camera.intrinsics, pitch: pose.x)
        let aim = AngularError.toCenter(
            coordinates.pixels(x: framingPoint.x, y: framingPoint.y), intrinsics: camera.intrinsics, pitch: pose.x)
        return (subject.yaw - aim.yaw, subject.pitch - aim.pitch)
    }
}

/// Turns what the camera sees into axis rates. Pure: time comes with the input.
public protocol ControlLaw: Sendable {
    var name: String { get }
    mutating func update(_ input: ControlInput) -> Vector3D
}

/// The laws dockd can run.
public enum ControlLawChoice: String, Sendable, CaseIterable {
    /// OpenDock's law: continuous following of a moving subject, a dead band for a still one,
    /// latency prediction and braking within the device's limits, search when lost.
    case dock
    /// A reproduction of obs-face-tracker's published PID, for side-by-side comparison.
    case pid

    public func make(
        _ framing: FramingConfiguration = FramingConfiguration(), pid: PIDConfiguration = PIDConfiguration()
    ) -> any ControlLaw {
        switch self {
        case .dock: FramingController(configuration: framing)
        case .pid: PIDControlLaw(configuration: pid)
        }
    }
}

extension ControlLaw {
    /// A tick for a subject seen in a frame captured now, with the head at rest.
    public mutating func update(
        target: NormalizedRect?, camera: CameraInformation, pose: Vector3D,
        framingPoint: (x: Double, y: Double) = (0.5, 0.5), at time: MonotonicInstant
    ) -> Vector3D {
        update(
            ControlInput(
                target: target, observedAt: time, camera: camera, pose: pose, framingPoint: framingPoint, time: time))
    }
}
