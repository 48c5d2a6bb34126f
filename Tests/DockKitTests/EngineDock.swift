import DockKitInProcess

@testable import DockEngine
@testable import DockKit

extension DockAccessory {
    /// The engine's dock behind an accessory of this process, for what only the engine shows.
    var engineDock: LocalDock { local as! LocalDock }
}
