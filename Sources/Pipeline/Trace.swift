import Foundation

/// One row of the per-frame trace: enough to recompute every figure with other tools.
public struct TraceRow: Sendable, Hashable {
    public var sequence: UInt64
    public var time: Double
    public var yaw: Double
    public var pitch: Double
    public var commandYaw: Double
    public var commandPitch: Double
    public var selectedID: Int?
    /// Every tracked subject: id and unit rect (lower-left origin).
    public var subjects: [(id: Int, x: Double, y: Double, width: Double, height: Double)]

    public init(
        sequence: UInt64, time: Double, yaw: Double, pitch: Double, commandYaw: Double, commandPitch: Double,
        selectedID: Int?, subjects: [(id: Int, x: Double, y: Double, width: Double, height: Double)]
    ) {
        self.sequence = sequence
        self.time = time
        self.yaw = yaw
        self.pitch = pitch
        self.commandYaw = commandYaw
        self.commandPitch = commandPitch
        self.selectedID = selectedID
        self.subjects = subjects
    }

    public static func == (a: TraceRow, b: TraceRow) -> Bool { a.csv == b.csv }
    public func hash(into hasher: inout Hasher) { hasher.combine(csv) }

    public static let csvHeader = "frame,time_s,yaw_rad,pitch_rad,cmd_yaw_rad_s,cmd_pitch_rad_s,selected_id,subjects"

    /// Subjects as `id:x:y:w:h` joined by spaces, so the row keeps a fixed column count.
    public var csv: String {
        let list = subjects.map { String(format: "%d:%.5f:%.5f:%.5f:%.5f", $0.id, $0.x, $0.y, $0.width, $0.height) }
            .joined(separator: " ")
        return String(format: "%llu,%.6f,%.6f,%.6f,%.6f,%.6f,", sequence, time, yaw, pitch, commandYaw, commandPitch)
            + (selectedID.map(String.init) ?? "") + "," + list
    }
}

public enum TraceWriter {
    public static func write(_ rows: [TraceRow], to path: String) throws {
        let text = ([TraceRow.csvHeader] + rows.map(\.csv)).joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
