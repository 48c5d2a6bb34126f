import DockKit
import Foundation
import Motion

/// `GET /metrics`: the running session's figures in Prometheus's text format.
enum MetricsExposition {
    /// One metric's lines: help, type and samples.
    private static func lines(
        _ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]
    ) -> [String] {
        ["# HELP opendock_\(name) \(help)", "# TYPE opendock_\(name) \(type)"]
            + samples.map { "opendock_\(name)\($0.labels) \(format($0.value))" }
    }

    static func text(_ api: ControlAPI) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            lines += Self.lines(name, type, help, samples)
        }
        let c = api.monitor.counters()
        let accessory = api.accessory
        metric("uptime_seconds", "gauge", "Seconds since the session started.", [("", c.uptime)])
        metric("frames_total", "counter", "Frames through the pipeline.", [("", Double(c.frames))])
        metric(
            "frames_dropped_total", "counter",
            "Frames the source produced that were not processed, all causes (see source_frames_total).",
            [("", Double(c.accounting.notProcessed))])
        metric(
            "source_frames_total", "counter", "Every frame the source produced, by what became of it.",
            c.accounting.outcomes.map { ("{outcome=\"\($0.key)\"}", Double($0.count)) })
        metric(
            "detector_failures_total", "counter", "Detector runs that failed (the frame went on without them).",
            [("", Double(c.detectorFailures))])
        metric(
            "stage_fps", "gauge", "Runs per second of each stage over the last 5 s.",
            c.stages.map { ("{stage=\"\(escape($0.name))\"}", $0.perSecond) })
        metric(
            "stage_runs_total", "counter", "Runs of each stage.",
            c.stages.map { ("{stage=\"\(escape($0.name))\"}", Double($0.runs)) })
        metric(
            "stage_latency_milliseconds", "summary", "Time each stage took over its last 300 runs.",
            c.stages.flatMap { s in
                [
                    ("{stage=\"\(escape(s.name))\",quantile=\"0.5\"}", s.median),
                    ("{stage=\"\(escape(s.name))\",quantile=\"0.99\"}", s.p99),
                ]
            })
        metric("track_calls_total", "counter", "track() calls made.", [("", Double(accessory.trackCallCount))])
        metric(
            "track_calls_per_second", "gauge", "track() calls per second over the last 5 s.",
            [("", c.trackCallsPerSecond)])
        metric(
            "rate_contract_violations_total", "counter", "track() calls refused for breaking the 10-30 Hz contract.",
            [("", Double(c.rateContractErrors))])
        let error = accessory.centeringError
        metric(
            "centering_error_degrees", "gauge",
            "The framed subject's offset from the framing target at the last track() call.",
            error.map { [("{axis=\"yaw\"}", $0.yaw * 180 / .pi), ("{axis=\"pitch\"}", $0.pitch * 180 / .pi)] } ?? [])
        lines += motorLines(accessory.motors)
        if let battery = accessory.battery.latest {
            metric("battery_volts", "gauge", "The head's battery voltage as it reports it.", [("", battery.volts)])
            metric(
                "battery_level", "gauge", "The head's battery charge, 0-1, estimated from its voltage.",
                [("", battery.level)])
            metric("battery_low", "gauge", "1 when the head's battery is low.", [("", battery.isLow ? 1 : 0)])
        }
        metric(
            "system_tracking_enabled", "gauge", "1 while the system tracks subjects.",
            [("", accessory.isSystemTrackingEnabled ? 1 : 0)])
        metric(
            "dockkit_session_held", "gauge", "1 while a DockKit program's session holds the dock.",
            [("", api.holder == nil ? 0 : 1)])
        metric(
            "event_stream_clients", "gauge", "Clients following each event stream now.",
            api.streamClients.withLock { $0 }.sorted { $0.key < $1.key }.map {
                ("{stream=\"\($0.key)\"}", Double($0.value))
            })
        metric(
            "events_dropped_total", "counter",
            "Events dropped because a client stopped reading (each client keeps its newest 64).",
            api.streamDrops.withLock { $0 }.sorted { $0.key < $1.key }.map {
                ("{stream=\"\($0.key)\"}", Double($0.value))
            })
        metric(
            "tracked_subjects", "gauge", "Subjects tracked in the newest frame.",
            [("", Double(accessory.latestTrackingState?.trackedSubjects.count ?? 0))])
        return lines.joined(separator: "\n") + "\n"
    }

    /// The motor device's figures.
    private static func motorLines(_ motors: MotorController) -> [String] {
        let commands = motors.commandCounts
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            lines += Self.lines(name, type, help, samples)
        }
        metric(
            "motor_commands_total", "counter", "Velocity commands the motor device took.", [("", Double(commands.sent))]
        )
        metric(
            "motor_link_errors_total", "counter",
            "Commands the motor link refused, and stops because the device fell silent.",
            [
                ("{kind=\"write\"}", Double(commands.failed)),
                ("{kind=\"silent\"}", Double(motors.silenceStops)),
            ])
        metric(
            "deadman_stops_total", "counter", "Stops because commands stopped coming (200 ms).",
            [("", Double(motors.deadmanStops))])
        metric(
            "motor_command_latency_seconds", "gauge",
            "The latency the control law predicts with: the device's own figure until measured from its starts.",
            [
                ("{source=\"device\"}", motors.backend.capabilities.commandLatency),
                ("{source=\"in_use\"}", motors.capabilities.commandLatency),
            ])
        return lines
    }

    private static func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.6g", value)
    }
}
