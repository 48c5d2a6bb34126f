import Bench
import ControlServer
import Daemon
import DockCore
import DockEngine
import DockKit
import Foundation
import Options
import Pipeline
import Rigs

/// dockd: the tracking service. Exit status 0 done, 1 runtime error, 64 usage error, 69 a
/// device the settings name is not there (yet), 78 settings that cannot work as they are.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("dockd: \(message)\n".utf8))
    exit(status)
}

/// The exit status for a run that could not start or go on, for a service manager to act on:
/// start again for a device that is not there yet (sysexits' EX_UNAVAILABLE), never for settings
/// that cannot work (EX_CONFIG; systemd/dockd.service does not restart on it).
func exitStatus(_ error: SessionError) -> Int32 {
    switch error.kind {
    case .failed: 1
    case .deviceUnavailable: 69
    case .setup: 78
    }
}

// Signals first, before any other thread exists (see StopFlag.installSignalHandlers).
let stop = StopFlag()
stop.exitOnSignalDuringStartup(prefix: "dockd: ")
stop.installSignalHandlers()

let options: DockdOptions
do {
    options = try DockdOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.message, status: 64)
}
if options.showHelp {
    print(DockdOptions.help)
    exit(0)
}
if options.showReference {
    print(DockdOptions.reference, terminator: "")
    exit(0)
}

let events = EventLog(format: options.logFormat)

// A head nobody described is learnt before tracking (and kept for the next start). It moves
// the head, so from here a signal stops it in order rather than ending the process at once.
let configuration = { () -> SessionConfiguration in
    guard FirstUseCalibration.applies(to: options.configuration) else { return options.configuration }
    stop.running()
    let calibration = FirstUseCalibration(
        directory: options.configuration.stateDirectory ?? FirstUseCalibration.defaultDirectory())
    let learnt = calibration.prepare(options.configuration, stop: stop) { events.event("calibration", $0) }
    if stop.isSet {
        fail("stopped by \(stop.signalReceived ?? "request") while calibrating; the head was told to stop", status: 0)
    }
    stop.exitOnSignalDuringStartup(prefix: "dockd: ")
    return learnt
}()

let session: Pipeline
do {
    session = try configuration.makeSession()
} catch {
    fail(error.message, status: exitStatus(error))
}
session.log = { events.event("camera", $0) }
events.event("source", "source \(session.sourceSummary)", ["source": session.sourceSummary])
events.event(
    "pipeline",
    "gimbal \(configuration.resolvedGimbal.label), detector \(session.detectorName), track rate \(Int(configuration.trackRate)) Hz",
    [
        "gimbal": configuration.resolvedGimbal.label, "detector": session.detectorName,
        "track_rate_hz": configuration.trackRate,
    ])
if let fallback = session.detectorFallback { events.event("fallback", fallback) }
if let audio = session.audioNote { events.event("audio", audio) }
if let zoom = session.zoomNote { events.event("zoom", zoom) }
if let out = session.videoOut {
    let framing = configuration.digitalFraming.map {
        String(format: ", digital framing up to %.1f×", $0.maximumZoom)
    }
    events.event("video_out", "video out \(out.summary)\(framing ?? "")", ["video_out": out.summary])
}

// The control API: started once the session exists, stopped after its motors are.
let manager = DockAccessoryManager.shared
session.reportDevice(to: manager)
var servers: [HTTPServer] = []
let api = ControlAPI(
    manager: manager, accessory: session.accessory, monitor: session.monitor,
    about: [
        "source": session.sourceSummary, "detector": session.detectorName,
        "gimbal": configuration.resolvedGimbal.label, "audio": session.audioNote ?? "off",
    ],
    token: options.token)
api.whenNotice { events.event("client-behind", $0) }
do {
    if let path = options.controlSocket {
        servers.append(try HTTPServer(endpoint: .unix(path: path), handler: api.handle))
    }
    if let endpoint = options.httpEndpoint { servers.append(try HTTPServer(endpoint: endpoint, handler: api.handle)) }
} catch {
    fail(error.message, status: 1)
}
for server in servers {
    if case .tcp = server.endpoint {
        events.event(
            "control-api",
            "control API on http://\(server.endpoint)/\(options.token == nil ? "" : " (token required)")",
            ["endpoint": "http://\(server.endpoint)/", "token_required": options.token != nil])
    } else {
        events.event("control-api", "control API on \(server.endpoint)", ["endpoint": server.endpoint.description])
    }
}
manager.dock(session.accessory, trackingButtonEnabled: options.buttonsDevice != nil)
var buttons: ButtonReader?
if let device = options.buttonsDevice {
    do {
        buttons = try ButtonReader(path: device, accessory: session.accessory, manager: manager)
        events.event("buttons", "buttons from \(device)", ["device": device])
    } catch {
        events.event(
            "buttons-off",
            "buttons off: cannot open \(device) (\(error == .cameraTCCMissing ? "permission denied: add dockd's user to the input group" : "no such device: see ls /dev/input/by-id")); tracking goes on",
            ["device": device])
    }
}
@MainActor func stopServing() {
    buttons?.stop()
    manager.undock(session.accessory)
    for server in servers { server.stop() }
}

// Under systemd (Type=notify): ready once the pipeline runs, watchdog pings from the control
// loop's progress, stopping as soon as a stop is asked for.
let notifier = SystemdNotifier()
if let notifier {
    session.progress = { notifier.progress() }
    stop.whenSet { _ in notifier.send("STOPPING=1") }
}

/// The calm move to a preset after the run (`--on-exit`); the motors were halted before it and
/// are halted after it, and a second signal cuts it short.
@MainActor func parkAtExit(_ preset: Preset) {
    let signalsAtStop = stop.signalCount
    events.event(
        "parking", "going to the \(preset.rawValue) pose; a second Ctrl-C or SIGTERM stops the motors at once",
        ["preset": preset.rawValue])
    switch session.accessory.park(at: preset, timeout: 12, abort: { stop.signalCount > signalsAtStop }) {
    case .arrived(let seconds, let pose):
        let (yaw, pitch) = (pose.y * 180 / .pi, pose.x * 180 / .pi)
        events.event(
            "parked",
            String(
                format: "at the %@ pose (yaw %.1f°, pitch %.1f°) after %.1f s; motors stopped", preset.rawValue, yaw,
                pitch, seconds),
            ["preset": preset.rawValue, "seconds": seconds, "yaw_deg": yaw, "pitch_deg": pitch])
    case .interrupted:
        events.event("parking-stopped", "parking cut short by a second signal; motors stopped where they were")
    case .timedOut:
        events.event("parking-stopped", "the \(preset.rawValue) pose not reached in 12 s; motors stopped")
    case .notMoved(let why):
        events.event("parking-skipped", "not going to the \(preset.rawValue) pose: \(why)")
    }
}

let statusLine = StatusLine()
let summary: SessionSummary
stop.running()
notifier?.send("READY=1\nSTATUS=tracking, source \(session.sourceSummary)")
do {
    summary = try session.run(stop: stop, status: options.quiet ? nil : statusLine.show)
} catch {
    notifier?.send("STOPPING=1")
    statusLine.finish()
    stopServing()
    fail("\(error.message) (motors stopped)", status: exitStatus(error))
}
notifier?.send("STOPPING=1")
stopServing()
if !options.quiet { statusLine.finish() }
if let preset = configuration.parkOnExit {
    parkAtExit(preset)
}
if let name = stop.signalReceived {
    let delay = summary.motorStopDelay.map { String(format: " %.0f ms after the signal", $0 * 1000) } ?? ""
    var fields: [String: Any] = ["signal": name]
    if let seconds = summary.motorStopDelay { fields["motor_stop_ms"] = seconds * 1000 }
    events.event("stopped", "stopped by \(name); motors stopped\(delay)", fields)
}
print(summary.report())
exit(0)
