import ControlClient
import DockCore
import Foundation

/// Keeps a DockKit program's accessories in step with the running dockd: follows dockd's
/// `state` event stream on a thread of its own, docks a `RemoteDock` for each accessory dockd
/// serves and undocks it when dockd says so or stops answering; then looks for dockd again
/// every half second, until stopped (the manager's runs for as long as the program does).
package final class DockdWatcher: Sendable {
    package let manager: DockAccessoryManager
    let endpoint: ControlEndpoint
    let retryInterval: Double
    private let stopped = Protected(false)

    package init(manager: DockAccessoryManager, endpoint: ControlEndpoint, retryInterval: Double = 0.5) {
        self.manager = manager
        self.endpoint = endpoint
        self.retryInterval = retryInterval
    }

    package func start() {
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                follow()
                Thread.sleep(forTimeInterval: retryInterval)
            }
        }
        thread.name = "opendock.dockd-watcher"
        thread.start()
    }

    /// Stops following within a second; what it docked is undocked.
    package func stop() { stopped.withLock { $0 = true } }

    /// One connection's worth: until dockd's stream ends (or dockd is not there).
    private func follow() {
        let connection = ControlConnection(endpoint: endpoint)
        var docked: [UUID: DockAccessory] = [:]
        let keepGoing: () -> Bool = { [stopped] in !stopped.withLock { $0 } }
        _ = try? connection.events("/v1/events/state", keepGoing: keepGoing) { _, data in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any],
                let identity = ControlJSON.readIdentity(object["accessory"])
            else { return true }
            let uuid = identity.identifier.uuid
            let button = object["trackingButtonEnabled"] as? Bool ?? false
            if object["state"] as? String == "docked" {
                // Docked again: its tracking button was pressed; the program hears the new state.
                if let known = docked[uuid] {
                    manager.dock(known, trackingButtonEnabled: button)
                    return true
                }
                guard let dock = try? RemoteDock(connection: connection, identity: object["accessory"])
                else { return true }
                let accessory = DockAccessory(remote: dock)
                docked[uuid] = accessory
                manager.dock(accessory, trackingButtonEnabled: button)
            } else if let accessory = docked.removeValue(forKey: uuid) {
                if case .remote(let dock) = accessory.backing { dock.close() }
                manager.undock(accessory)
            }
            return true
        }
        for accessory in docked.values {
            if case .remote(let dock) = accessory.backing { dock.close() }
            manager.undock(accessory)
        }
    }
}
