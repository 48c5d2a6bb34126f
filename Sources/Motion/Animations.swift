import DockCore

/// DockKit's canned motions, as trajectories relative to the pose they start from. Each ends
/// where it began.
public enum MotionAnimation: String, Sendable, CaseIterable {
    /// Nod: the head tilts down and up twice.
    case yes
    /// Shake: the head pans left and right twice.
    case no
    /// Wake up: looks up, glances right and left, settles back.
    case wakeup
    /// A pendulum swing that dies away.
    case kapow

    public func trajectory(from start: Vector3D) -> Trajectory {
        let d = Double.pi / 180
        func k(_ t: Double, pitch: Double = 0, yaw: Double = 0) -> Trajectory.Keyframe {
            Trajectory.Keyframe(time: t, offset: Vector3D(x: pitch * d, y: yaw * d, z: 0))
        }
        let frames: [Trajectory.Keyframe]
        switch self {
        case .yes:
            frames = [k(0), k(0.25, pitch: 10), k(0.5, pitch: -4), k(0.75, pitch: 10), k(1.0, pitch: -4), k(1.3)]
        case .no:
            frames = [k(0), k(0.3, yaw: -12), k(0.65, yaw: 12), k(1.0, yaw: -12), k(1.35, yaw: 12), k(1.7)]
        case .wakeup:
            frames = [
                k(0), k(0.6, pitch: -12), k(1.2, pitch: -12, yaw: 18), k(1.9, pitch: -10, yaw: -18), k(2.5, pitch: -4),
                k(3.0),
            ]
        case .kapow:
            let swings = [25.0, -18, 12, -7, 3]
            frames = [k(0)] + swings.enumerated().map { k(0.35 * Double($0.offset + 1), yaw: $0.element) } + [k(2.1)]
        }
        return Trajectory(start: start, keyframes: frames)
    }
}
