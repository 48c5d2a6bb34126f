import ControlClient

/// One line of `dockctl help`: a verb, what it does, and who serves it.
struct DockctlVerb: Sendable {
    enum Runner: Sendable {
        /// Talks to a running dockd over its control API (ControlClient, in this process).
        case dockd
        /// Runs in dockctl-tools, the executable beside this one that links the pipeline.
        case tools
    }

    let name: String
    let runner: Runner
    let summary: String
}

/// Every verb, in the order `dockctl help` lists them.
let dockctlVerbs: [DockctlVerb] =
    ClientCommand.verbSummaries.map { DockctlVerb(name: $0.verb, runner: .dockd, summary: $0.summary) } + [
        DockctlVerb(
            name: "devices", runner: .tools,
            summary: "list V4L2 cameras: stable names, formats, sizes, rates, controls (--json)"),
        DockctlVerb(
            name: "control", runner: .tools,
            summary: "read or write a camera's controls by name (zoom, focus, exposure, pan/tilt, …)"),
        DockctlVerb(
            name: "capture", runner: .tools,
            summary: "stream frames from a camera and check sizes, sequence numbers, timestamps"),
        DockctlVerb(
            name: "listen", runner: .tools,
            summary: "record from a microphone: format, overruns, voice activity and its direction"),
        DockctlVerb(
            name: "calibrate", runner: .tools,
            summary: "turn the head a little and watch the camera: axis directions, field of view, latency"),
        DockctlVerb(
            name: "doctor", runner: .tools,
            summary: "check a setup: models, cameras, video out, serial ports, microphones, the service"),
        DockctlVerb(
            name: "bench", runner: .tools,
            summary: "the pipeline in closed loop on scene files: tracking figures, peers, report"),
        DockctlVerb(
            name: "label", runner: .tools, summary: "a scene proposed from a recording: its faces and who speaks"),
        DockctlVerb(
            name: "review", runner: .tools,
            summary: "check and fix a recording's proposed truth in the browser, then mark it checked"),
        DockctlVerb(name: "scenes", runner: .tools, summary: "write the generated scene suite, or check scene files"),
        DockctlVerb(
            name: "soak", runner: .tools,
            summary: "the demo in real time for minutes: memory drift, lag, drops, latency"),
        DockctlVerb(
            name: "bench-live", runner: .tools,
            summary: "the live path's CPU, memory and latency on a 720p30 MJPEG webcam, per profile"),
        DockctlVerb(
            name: "bench-decode", runner: .tools, summary: "MJPEG decode time per frame at full, 1/2 and 1/4 scale"),
        DockctlVerb(
            name: "bench-motion", runner: .tools,
            summary: "the control laws side by side: step settle/overshoot, walking error, still starts"),
        DockctlVerb(
            name: "bench-client", runner: .tools,
            summary: "a DockKit program's track() → motor command latency over dockd's socket"),
        DockctlVerb(
            name: "accuracy", runner: .tools,
            summary: "detection precision, recall and IoU per detector and size on labelled images"),
        DockctlVerb(
            name: "peer-run", runner: .tools,
            summary: "our per-frame detection work on a recording, as the Python peer does it (for bench --peer)"),
    ]

let usage: String = {
    func lines(_ runner: DockctlVerb.Runner) -> String {
        dockctlVerbs.filter { $0.runner == runner }
            .map { "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }
    return """
        dockctl — OpenDock's control and benchmark tool.

        Usage: dockctl COMMAND [options]

        Commands
        Talking to a running dockd (dockctl status --help for the options)
        \(lines(.dockd))

        Tools
        \(lines(.tools))
          help          this text (dockctl COMMAND --help for a command's options)
        """
}()
