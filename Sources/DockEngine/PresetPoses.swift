import DockCore

/// The poses a dock goes to on command: home, and privacy (the camera turned away from the room
/// and down, so a meeting can trust it is not looking).
package enum Preset: String, Sendable, CaseIterable {
    case home
    case privacy
}

/// Where each preset is (radians; x = pitch, y = yaw). A pose beyond the limits in force is
/// reached as far as they allow.
package struct PresetPoses: Sendable {
    package var home = Vector3D()
    package var privacy = Vector3D(x: .pi / 2, y: .pi, z: 0)
    /// How fast the head goes to a preset (rad/s): a calm move.
    static let speed = 30.0 * .pi / 180

    package func pose(of preset: Preset) -> Vector3D {
        switch preset {
        case .home: home
        case .privacy: privacy
        }
    }
}
