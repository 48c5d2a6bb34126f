import ControlClient
import DockCore
import Foundation

extension DockAccessory {
    /// Whether a dock is usable.
    public enum State: Sendable, Hashable, CustomDebugStringConvertible {
        case docked, undocked
        public var debugDescription: String { self == .docked ? "docked" : "undocked" }
    }

    /// A dock coming or going.
    public struct StateChange: Sendable {
        public typealias State = DockAccessory.State
        public var state: State
        public var accessory: DockAccessory?
        /// Whether the dock's tracking button has system tracking on: false for a dock without
        /// one; a press of it is a new state change (still `.docked`) with the new value.
        public var trackingButtonEnabled: Bool
    }

    public typealias StateChanges = AsyncStream<StateChange>
}

/// The entry point: which accessories are docked and whether the system tracks subjects.
public final class DockAccessoryManager: Sendable {
    public static let shared = DockAccessoryManager()

    private struct State {
        var systemTrackingEnabled = true
        /// What this program asked for with `setSystemTrackingEnabled`, applied to every dock as
        /// it is found (Apple's programs turn tracking off before they look for a dock).
        var asked: Bool?
        var accessories: [DockAccessory] = []
        /// Docks in this process that have a tracking button; what dockd's docks say of theirs.
        var trackingButtons: Set<UUID> = []
        var remoteButtons: [UUID: Bool] = [:]
        var discovered = false
        var buttonReaders: [ButtonReader] = []
    }
    private let state = Protected(State())
    private let changes = Broadcast<DockAccessory.StateChange>()

    package init() {}

    /// Docked and undocked as docks come and go; starts with every accessory docked now. A
    /// program's accessories are those of the running dockd (its socket found as dockctl finds
    /// it: `$OPENDOCK_SOCKET`, the runtime directory, …): docked while dockd serves one,
    /// undocked when dockd stops or its head falls silent, docked again when it is back. With
    /// `OPENDOCK_GIMBAL=sim` the program docks a simulated gimbal of its own instead
    /// (`OPENDOCK_BUTTONS=/dev/input/…` adds a remote's buttons to it).
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
            for accessory in state.accessories {
                handler(
                    .init(state: .docked, accessory: accessory, trackingButtonEnabled: Self.button(accessory, state)))
            }
            return changes.subscribe(handler)
        }
    }

    package func stopObservingStateChanges(_ id: UUID) { changes.unsubscribe(id) }

    /// Finds the accessories the environment names, the first time a client asks for them.
    package func discoverOnce(_ environment: [String: String]) throws(DockKitError) {
        guard
            !state.withLock({ state in
                defer { state.discovered = true }
                return state.discovered
            })
        else { return }
        guard let gimbal = environment["OPENDOCK_GIMBAL"] else {
            DockdWatcher(manager: self, endpoint: .unix(path: ControlEndpoint.defaultSocketPath)).start()
            return
        }
        // Only the simulator lives in a program; real devices are driven by dockd.
        guard gimbal == "sim" else { throw .notSupportedByDevice }
        guard let dock = SimulatedDocks.make() else {
            FileHandle.standardError.write(
                Data(
                    ("OPENDOCK_GIMBAL=sim: this program does not link OpenDock's simulated gimbal; "
                        + "add DockKitInProcess to its dependencies, or run dockd and leave OPENDOCK_GIMBAL unset\n")
                        .utf8))
            throw .notSupportedByDevice
        }
        if let path = environment["OPENDOCK_BUTTONS"] {
            let reader = try ButtonReader(path: path, accessory: dock, manager: self)
            state.withLock { $0.buttonReaders.append(reader) }
        }
        self.dock(dock, trackingButtonEnabled: environment["OPENDOCK_BUTTONS"] != nil)
    }

    public var isSystemTrackingEnabled: Bool {
        state.withLock { state in
            for accessory in state.accessories {
                if case .remote(let dock) = accessory.backing { return dock.mirror.systemTracking }
            }
            return state.systemTrackingEnabled
        }
    }

    /// With system tracking off, clients track with `track(_:cameraInformation:)` or drive motors.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws {
        state.withLock { $0.asked = enabled }
        applySystemTracking(enabled)
        for accessory in accessories {
            if case .remote(let dock) = accessory.backing {
                try await dock.send("systemTracking", ["enabled": enabled])
            }
        }
    }

    /// Switches system tracking on every dock in this process.
    package func applySystemTracking(_ enabled: Bool) {
        let accessories = state.withLock { state in
            state.systemTrackingEnabled = enabled
            return state.accessories
        }
        for accessory in accessories { accessory.local?.setSystemTrackingEnabled(enabled) }
    }

    /// Makes a dock in this process known (its motor device became usable); whether it has a
    /// tracking button, when not said, is what it was last time.
    package func dock(_ dock: any InProcessDock, trackingButtonEnabled: Bool? = nil) {
        let (known, button) = state.withLock { state in
            (
                state.accessories.first { $0.identifier.uuid == dock.identifier.uuid },
                state.trackingButtons.contains(dock.identifier.uuid)
            )
        }
        self.dock(known ?? DockAccessory(local: dock), trackingButtonEnabled: trackingButtonEnabled ?? button)
    }

    /// Makes an accessory known: one in this process, or one a running dockd serves.
    /// `trackingButtonEnabled`: for a dock in this process, whether it has a tracking button;
    /// for one dockd serves, what dockd says of its button.
    package func dock(_ accessory: DockAccessory, trackingButtonEnabled: Bool) {
        let (enabled, asked, known) = state.withLock {
            ($0.systemTrackingEnabled, $0.asked, $0.accessories.contains(accessory))
        }
        accessory.local?.setSystemTrackingEnabled(enabled)
        // A dock dockd serves takes the program's choice before anyone hears of it (once: a dock
        // said again is its tracking button pressed, which is the user's choice).
        if case .remote(let dock) = accessory.backing, let asked, !known { dock.requestSystemTracking(asked) }
        state.withLock { state in
            state.accessories.removeAll { $0 == accessory }
            state.accessories.append(accessory)
            let id = accessory.identifier.uuid
            if accessory.local == nil {
                state.remoteButtons[id] = trackingButtonEnabled
            } else if trackingButtonEnabled {
                state.trackingButtons.insert(id)
            } else {
                state.trackingButtons.remove(id)
            }
            changes.yield(
                .init(state: .docked, accessory: accessory, trackingButtonEnabled: Self.button(accessory, state)))
        }
    }

    /// A press of a dock's tracking button: system tracking switched on every dock here, and
    /// each dock with a button says its new state, as Apple's do.
    package func trackingButtonPressed(enabling enabled: Bool) {
        applySystemTracking(enabled)
        state.withLock { state in
            for accessory in state.accessories where state.trackingButtons.contains(accessory.identifier.uuid) {
                changes.yield(
                    .init(state: .docked, accessory: accessory, trackingButtonEnabled: Self.button(accessory, state)))
            }
        }
    }

    /// What a dock's `trackingButtonEnabled` says now.
    private static func button(_ accessory: DockAccessory, _ state: State) -> Bool {
        let id = accessory.identifier.uuid
        guard let local = accessory.local else { return state.remoteButtons[id] ?? false }
        return state.trackingButtons.contains(id) && local.isSystemTrackingEnabled
    }

    /// Forgets a dock in this process (its device went away).
    package func undock(_ dock: any InProcessDock) {
        guard let known = state.withLock({ $0.accessories.first { $0.identifier.uuid == dock.identifier.uuid } })
        else { return }
        undock(known)
    }

    /// Forgets an accessory.
    package func undock(_ accessory: DockAccessory) {
        state.withLock { state in
            guard state.accessories.contains(accessory) else { return }
            state.accessories.removeAll { $0 == accessory }
            changes.yield(
                .init(state: .undocked, accessory: accessory, trackingButtonEnabled: Self.button(accessory, state)))
        }
    }

    package var accessories: [DockAccessory] { state.withLock { $0.accessories } }
}
