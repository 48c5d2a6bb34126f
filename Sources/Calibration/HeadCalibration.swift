import Foundation

/// What a calibration found on one axis.
public struct AxisCalibration: Sendable, Hashable {
    public var axis: TurnAxis
    /// +1 when the camera turns the way the head reads, −1 when it turns the other way.
    public var direction: Double
    /// What the head read it turned, and what the camera really turned, radians.
    public var readTurn: Double
    public var cameraTurn: Double
    /// Pixels, from the turn's picture.
    public var focalLength: Double
    /// How well a pure turn explains the picture's move: RMS pixels, over `points` pieces.
    public var residual: Double
    public var points: Int
    /// Seconds from a command to the picture moving; nil when the move was too short to tell.
    public var latency: Double?

    public var isInverted: Bool { direction < 0 }
    /// The camera's turn per unit the head read: 1 for a head whose units are right.
    public var scale: Double { abs(cameraTurn / readTurn) }
}

/// What `HeadCalibrator` found, as lines to read and as dockd's configuration.
public struct HeadCalibration: Sendable, Hashable {
    public var pan: AxisCalibration?
    public var tilt: AxisCalibration?
    public var pictureWidth = 0

    public init() {}

    /// The horizontal field of view, degrees, from the pan turn's focal length (or the tilt's).
    public var horizontalFieldOfView: Double? {
        guard let f = pan?.focalLength ?? tilt?.focalLength, pictureWidth > 0 else { return nil }
        return 2 * atan(Double(pictureWidth) / 2 / f) * 180 / .pi
    }

    /// The command latency: the axes' figures, averaged.
    public var latency: Double? {
        let figures = [pan?.latency, tilt?.latency].compactMap { $0 }
        return figures.isEmpty ? nil : figures.reduce(0, +) / Double(figures.count)
    }

    /// A few lines: each axis's direction and units, the field of view, the latency.
    public var report: [String] {
        var lines: [String] = []
        let degrees = 180 / Double.pi
        for axis in [pan, tilt].compactMap({ $0 }) {
            lines.append(
                String(
                    format:
                        "%@: %@ (the head read %.2f°, the camera turned %.2f°: %.3f of a degree per degree read; fit within %.2f px over %d pieces)",
                    axis.axis.rawValue, axis.isInverted ? "inverted" : "normal", axis.readTurn * degrees,
                    axis.cameraTurn * degrees, axis.scale, axis.residual, axis.points))
        }
        if let fov = horizontalFieldOfView {
            lines.append(String(format: "field of view: %.1f° across %d pixels", fov, pictureWidth))
        }
        if let latency {
            lines.append(String(format: "command latency: %.0f ms", latency * 1000))
        }
        return lines
    }

    /// A scale this near 1 is the measurement's own spread (within 4 % on right heads): the
    /// head's units are taken as right.
    public static let scaleTolerance = 0.05

    /// dockd's configuration (`--config`) for what was found: the axes' directions, their
    /// scales where the head's units are off, the field of view and the command latency.
    public var configuration: [String: [String: Any]] {
        var gimbal: [String: Any] = [:]
        if let pan { gimbal["pan_direction"] = pan.isInverted ? "inverted" : "normal" }
        if let tilt { gimbal["tilt_direction"] = tilt.isInverted ? "inverted" : "normal" }
        for (axis, name) in [(pan, "pan_scale"), (tilt, "tilt_scale")] {
            guard let axis, abs(axis.scale - 1) > Self.scaleTolerance else { continue }
            gimbal[name] = (axis.scale * 1000).rounded() / 1000
        }
        if let latency { gimbal["command_latency_ms"] = (latency * 1000).rounded() }
        var result: [String: [String: Any]] = ["gimbal": gimbal]
        if let fov = horizontalFieldOfView { result["source"] = ["hfov_deg": (fov * 10).rounded() / 10] }
        return result
    }
}

/// Why a calibration could not finish: one line that says what to do.
public struct CalibrationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
