/// A lithium pack's charge from its voltage, as a head's controller reports it: each cell
/// taken as empty at 3.3 V and full at 4.2 V, linear between (an estimate: a cell's curve is
/// flat in the middle), and low under `lowVoltsPerCell`. The number of cells in series is
/// configured, or guessed from the voltage (a 2S pack never reads above 8.5 V, a 3S one never
/// below 9.9 V).
public struct BatteryGauge: Sendable, Hashable {
    public var cells: Int?
    public var lowVoltsPerCell: Double
    public static let emptyVoltsPerCell = 3.3
    public static let fullVoltsPerCell = 4.2

    public init(cells: Int? = nil, lowVoltsPerCell: Double = 3.5) {
        self.cells = cells
        self.lowVoltsPerCell = lowVoltsPerCell
    }

    public struct Reading: Sendable, Hashable {
        public var volts: Double
        public var cells: Int
        /// 0…1.
        public var level: Double
        public var isLow: Bool
    }

    public func reading(volts: Double) -> Reading {
        let count = max(1, cells ?? Int((volts / 4.25).rounded(.up)))
        let perCell = volts / Double(count)
        let level = (perCell - Self.emptyVoltsPerCell) / (Self.fullVoltsPerCell - Self.emptyVoltsPerCell)
        return Reading(volts: volts, cells: count, level: min(max(level, 0), 1), isLow: perCell < lowVoltsPerCell)
    }
}
