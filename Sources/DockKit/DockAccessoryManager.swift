import DockCore

/// The entry point: which accessories are docked and whether the system tracks subjects.
public final class DockAccessoryManager: Sendable {
    public static let shared = DockAccessoryManager()

    private struct State {
        var systemTrackingEnabled = true
        var accessories: [DockAccessory] = []
    }
    private let state = Protected(State())

    package init() {}

    public var isSystemTrackingEnabled: Bool { state.withLock { $0.systemTrackingEnabled } }

    /// With system tracking off, clients track with `track(_:cameraInformation:)` or drive motors.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws {
        let accessories = state.withLock { state in
            state.systemTrackingEnabled = enabled
            return state.accessories
        }
        for accessory in accessories { accessory.setSystemTrackingEnabled(enabled) }
    }

    /// Makes an accessory known (a motor device became usable).
    package func dock(_ accessory: DockAccessory) {
        let enabled = state.withLock { state in
            state.accessories.append(accessory)
            return state.systemTrackingEnabled
        }
        accessory.setSystemTrackingEnabled(enabled)
    }

    package func undock(_ accessory: DockAccessory) {
        state.withLock { $0.accessories.removeAll { $0 == accessory } }
    }

    package var accessories: [DockAccessory] { state.withLock { $0.accessories } }
}
