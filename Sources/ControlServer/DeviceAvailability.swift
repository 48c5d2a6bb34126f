import DockKit
import DockKitInProcess
import Pipeline

extension PipelineSession {
    /// Keeps `manager` told of the motor device: the accessory undocked while the device does
    /// not answer, docked again when it does (the engine knows nothing of DockKit's manager).
    package func reportDevice(to manager: DockAccessoryManager) {
        let accessory = self.accessory
        deviceAvailability = { answering in
            if answering { manager.dock(accessory) } else { manager.undock(accessory) }
        }
    }
}
