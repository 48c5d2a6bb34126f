import CDockKitInProcess
import DockEngine
import DockKit

/// Hands DockKit the simulated gimbal a program docks of its own; called as the program loads
/// (CDockKitInProcess), before any of its code runs.
@_cdecl("cdockkitinprocess_register_docks")
public func registerInProcessDocks() {
    SimulatedDocks.register { LocalDock.simulated() }
}
