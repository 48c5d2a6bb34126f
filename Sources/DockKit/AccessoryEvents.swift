import DockCore
import Foundation

extension DockAccessory {
    public typealias AccessoryEvent = DockCore.AccessoryEvent
    public typealias AccessoryEvents = AsyncStream<AccessoryEvent>
    public typealias BatteryState = DockCore.BatteryState
    public typealias BatteryStates = AsyncStream<BatteryState>
    /// Apple's path for the charge state.
    public typealias BatteryChargeState = BatteryState.ChargeState
}
