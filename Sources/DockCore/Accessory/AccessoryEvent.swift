/// Something the user did on the dock or a remote: a button, the shutter, flip or zoom
/// (DockKit's `DockAccessory.AccessoryEvent`).
public enum AccessoryEvent: Sendable, Hashable {
    case cameraShutter
    case cameraFlip
    /// > 0 zooms in, < 0 out.
    case cameraZoom(factor: Double)
    case button(id: Int, pressed: Bool)
}

/// A battery in the dock; a dock may report several, told apart by name (DockKit's
/// `DockAccessory.BatteryState`).
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
