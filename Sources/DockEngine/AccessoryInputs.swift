import DockCore

extension LocalDock {
    /// Hands an input event to subscribers (an input device, the gimbal's protocol).
    package func post(_ event: AccessoryEvent) { events.yield(event) }

    /// Hands a battery report to subscribers.
    package func report(_ battery: BatteryState) { batteries.yield(battery) }
}
