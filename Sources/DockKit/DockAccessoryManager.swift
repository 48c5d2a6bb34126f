import DockCore
import Foundation
import Motion

extension DockAccessory {
    /// A dock coming or going.
    public struct StateChange: Sendable {
        public enum State: Sendable, Hashable { case docked, undocked }
        public var state: State
        public var accessory: DockAccessory?
        /// Whether the dock's tracking button switches system tracking (true when it has one).
        public var trackingButtonEnabled: Bool
    }

    public typealias StateChanges = AsyncStream<StateChange>
}

/// The entry point: which accessories are docked and whether the system tracks subjects.
public final class DockAccessoryManager: Sendable {
    public static let shared = DockAccessoryManager()

    private struct State {
        var systemTrackingEnabled = true
        var accessories: [DockAccessory] = []
        var discovered = false
        var buttonReaders: [ButtonReader] = []
    }
    private let state = Protected(State())
    private let changes = Broadcast<DockAccessory.StateChange>()

    package init() {}

    /// Docked and undocked as motor devices come and go; starts with every accessory docked now.
    /// In a program of its own (not dockd), the accessory comes from the environment:
    /// `OPENDOCK_GIMBAL=sim` docks a simulated gimbal, `OPENDOCK_BUTTONS=/dev/input/…` adds a
    /// remote's buttons to it.
    public var accessoryStateChanges: DockAccessory.StateChanges {
        get throws {
            try discoverOnce(ProcessInfo.processInfo.environment)
            let (stream, continuation) = DockAccessory.StateChanges.makeStream(bufferingPolicy: .bufferingNewest(16))
            let id = observeStateChanges { continuation.yield($0) }
            continuation.onTermination = { [changes] _ in changes.unsubscribe(id) }
            return stream
        }
    }

    /// `accessoryStateChanges` for a listener on a thread of its own: `handler` gets every docked
    /// accessory now, then each change, until `stopObservingStateChanges`. Subscribed under the
    /// lock, so no change slips between the snapshot and the subscription.
    package func observeStateChanges(_ handler: @escaping @Sendable (DockAccessory.StateChange) -> Void) -> UUID {
        state.withLock { state in
            for accessory in state.accessories { handler(.init(state: .docked, accessory: accessory, trackingButtonEnabled: true)) }
            return changes.subscribe(handler)
        }
    }

    package func stopObservingStateChanges(_ id: UUID) { changes.unsubscribe(id) }

    /// Docks what the environment names, the first time a client asks for accessories.
    package func discoverOnce(_ environment: [String: String]) throws(DockKitError) {
        guard !state.withLock({ state in defer { state.discovered = true }; return state.discovered }) else { return }
        guard let gimbal = environment["OPENDOCK_GIMBAL"] else { return }
        // Only the simulator lives in this library; real devices are driven by dockd.
        guard gimbal == "sim" else { throw .notSupportedByDevice }
        let clock = SystemMonotonicClock()
        let accessory = DockAccessory(name: "simulated gimbal", backend: SimulatedGimbal(start: clock.now), clock: clock,
                                      hardwareModel: "OpenDock simulator")
        accessory.startMotionLoop()
        if let path = environment["OPENDOCK_BUTTONS"] {
            let reader = try ButtonReader(path: path, accessory: accessory, manager: self)
            state.withLock { $0.buttonReaders.append(reader) }
        }
        dock(accessory)
    }

    public var isSystemTrackingEnabled: Bool { state.withLock { $0.systemTrackingEnabled } }

    /// With system tracking off, clients track with `track(_:cameraInformation:)` or drive motors.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws {
        applySystemTracking(enabled)
    }

    package func applySystemTracking(_ enabled: Bool) {
        let accessories = state.withLock { state in
            state.systemTrackingEnabled = enabled
            return state.accessories
        }
        for accessory in accessories { accessory.setSystemTrackingEnabled(enabled) }
    }

    /// Makes an accessory known (a motor device became usable).
    package func dock(_ accessory: DockAccessory) {
        let enabled = state.withLock { state in
            state.accessories.removeAll { $0 == accessory }
            state.accessories.append(accessory)
            changes.yield(.init(state: .docked, accessory: accessory, trackingButtonEnabled: true))
            return state.systemTrackingEnabled
        }
        accessory.setSystemTrackingEnabled(enabled)
    }

    /// Forgets an accessory (its device went away).
    package func undock(_ accessory: DockAccessory) {
        state.withLock { state in
            guard state.accessories.contains(accessory) else { return }
            state.accessories.removeAll { $0 == accessory }
            changes.yield(.init(state: .undocked, accessory: accessory, trackingButtonEnabled: true))
        }
    }

    package var accessories: [DockAccessory] { state.withLock { $0.accessories } }
}
