import DockCore
import Foundation

extension DockAccessory {
    /// Something the user did on the dock or a remote: a button, the shutter, flip or zoom.
    public enum AccessoryEvent: Sendable, Hashable {
        case cameraShutter
        case cameraFlip
        /// > 0 zooms in, < 0 out.
        case cameraZoom(factor: Double)
        case button(id: Int, pressed: Bool)
    }

    public typealias AccessoryEvents = AsyncStream<AccessoryEvent>

    /// A battery in the dock; a dock may report several, told apart by name.
    public struct BatteryState: Sendable, Hashable {
        public enum ChargeState: Sendable, Hashable { case charging, notCharging, notChargeable }
        public var name: String
        /// 0…1.
        public var batteryLevel: Double
        public var chargeState: ChargeState
        public var lowBattery: Bool

        public init(name: String, batteryLevel: Double, chargeState: ChargeState, lowBattery: Bool) {
            self.name = name
            self.batteryLevel = batteryLevel
            self.chargeState = chargeState
            self.lowBattery = lowBattery
        }
    }

    public typealias BatteryStates = AsyncStream<BatteryState>
    /// Apple's path for the charge state.
    public typealias BatteryChargeState = BatteryState.ChargeState
}

extension LocalDock {
    /// Hands an input event to subscribers (an input device, the gimbal's protocol).
    package func post(_ event: DockAccessory.AccessoryEvent) { events.yield(event) }

    /// Hands a battery report to subscribers.
    package func report(_ battery: DockAccessory.BatteryState) { batteries.yield(battery) }
}
