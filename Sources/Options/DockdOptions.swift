import Audio
import ControlClient
import DockCore
import DockKit
import Foundation
import Motion
import Perception
import Pipeline

/// How dockd logs its events on stderr (`--log-format`).
public enum LogFormat: String, Sendable { case text, json }

/// dockd's command line.
public struct DockdOptions: Sendable {
    /// The daemon keeps no record per frame in memory: the trace goes to its file as it comes,
    /// and its live figures cover the latest minutes.
    public var configuration = { () -> SessionConfiguration in
        var c = SessionConfiguration()
        c.keepFrameRecords = false
        c.timingWindow = SessionConfiguration.liveWindowFrames
        c.calibrateAtFirstUse = true
        return c
    }()
    public var quiet = false
    public var showHelp = false
    /// Print the configuration reference (`--reference`) instead of running.
    public var showReference = false
    /// The control API's Unix socket; nil = no control API (`--no-control`).
    public var controlSocket: String? = DockdOptions.defaultControlSocket
    /// Also serve the control API on TCP here (`--http`).
    public var httpEndpoint: ControlEndpoint?
    /// The token TCP clients must send (`--token-file`); required for a non-loopback address.
    public var token: String?
    /// An input device whose keys become accessory events (`--buttons`).
    public var buttonsDevice: String?
    /// How events are logged on stderr (`--log-format`).
    public var logFormat = LogFormat.text

    public static var defaultControlSocket: String { ControlEndpoint.defaultSocketPath }

    public static var help: String {
        var text = """
            dockd — keeps a camera on a motorized gimbal pointed at the person in view.

            Usage: dockd [--config FILE] [--demo | --source FILE | --camera DEVICE] [options]

              --config FILE           settings from a JSON file (docs/configuration.md); options
                                      on the command line override it

            """
        for group in DockdOption.Group.allCases {
            text += "\n\(group.rawValue)\n" + DockdOption.helpText(for: group) + "\n"
        }
        return text + """

            Exit status: 0 done (or stopped by SIGINT/SIGTERM, motors stopped), 1 runtime error,
            64 usage error.
            """
    }

    /// Every option and configuration key as Markdown: docs/configuration.md's tables.
    public static var reference: String { DockdOption.reference }

    public init() {}

    /// The command line, after the configuration file it names (`--config FILE`): the file's
    /// settings come first, so options on the command line override them; a source on the
    /// command line replaces the file's.
    /// `checkCombinations: false` parses each option alone (the doctor checks a head without a
    /// camera, which dockd refuses to run).
    public static func parse(_ arguments: [String], checkCombinations: Bool = true) throws(UsageError) -> DockdOptions {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--config") {
            guard index + 1 < arguments.count else { throw UsageError("--config needs a file") }
            let path = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
            guard !arguments.contains("--config") else { throw UsageError("--config may be given once") }
            let sourceOptions: Set<String> = ["--demo", "--source", "--camera"]
            let sourceOnCommandLine = arguments.contains { sourceOptions.contains($0) }
            let settings = try DockdConfigFile.load(path: path)
            let fromFile = settings.filter { !(sourceOnCommandLine && sourceOptions.contains($0.tokens[0])) }.flatMap(
                \.tokens)
            arguments = fromFile + arguments
        }
        return try parseCommandLine(arguments, checkCombinations: checkCombinations)
    }

    /// Options one by one, each as the table says; `checkCombinations` adds the checks that
    /// look at several together (one source, a real gimbal only with a camera, audio that fits
    /// the source).
    static func parseCommandLine(_ arguments: [String], checkCombinations: Bool) throws(UsageError) -> DockdOptions {
        var options = DockdOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard let option = DockdOption.byName[argument] else {
                throw UsageError(
                    argument.hasPrefix("-")
                        ? "unknown option '\(argument)' (see dockd --help)"
                        : "unexpected argument '\(argument)' (see dockd --help)")
            }
            var value = ""
            if option.value != nil {
                guard let v = rest.popFirst(), !v.hasPrefix("--") || v.count <= 2 else {
                    throw UsageError("\(argument) needs a value")
                }
                value = v
            }
            do { try option.apply(&options, value) } catch {
                throw (error as? UsageError) ?? UsageError("\(argument): \(error)")
            }
        }
        if checkCombinations { try options.checkCombinations(arguments) }
        return options
    }

    /// The checks that look at several options together.
    private func checkCombinations(_ arguments: [String]) throws(UsageError) {
        let c = configuration
        if Set(arguments).intersection(["--demo", "--source", "--camera"]).count > 1 {
            throw UsageError("--demo, --source and --camera exclude each other")
        }
        if let http = httpEndpoint, !http.isLoopback, token == nil {
            throw UsageError(
                "--http \(http) is reachable from other machines; give --token-file FILE, or serve on 127.0.0.1")
        }
        if c.gimbal == .sim, case .camera = c.source {
            throw UsageError(
                "--gimbal sim cannot move a real camera; name the gimbal (e.g. --gimbal simplebgc:/dev/ttyUSB0) or use none"
            )
        }
        if case .device = c.gimbal {
            guard case .camera = c.source else {
                throw UsageError("a real --gimbal needs a live --camera; recordings run with --gimbal sim or none")
            }
        }
        if case .camera = c.source {
            if c.audioFile != nil {
                throw UsageError("--audio FILE goes with a recording; a live --camera listens with --audio-device NAME")
            }
        } else if c.audioDevice != nil {
            throw UsageError("--audio-device listens live and goes with --camera; a recording takes --audio FILE")
        }
        if c.outputVideoKeepBytes != nil, !(c.outputVideo ?? "").hasSuffix(".avi") {
            throw UsageError(
                "--output-keep rotates an MJPEG .avi recording: give --output FILE.avi (got \(c.outputVideo ?? "no --output"))"
            )
        }
        if let out = c.videoOut, out.device.isEmpty {
            throw UsageError("--video-out-size sizes the virtual camera: name it with --video-out /dev/videoN")
        }
    }

}

/// Which way an axis of the head turns the camera, by the names dockd takes.
enum AxisDirection: String { case normal, inverted }

/// The framing modes by the names dockd takes.
enum FramingModeName: String {
    case automatic, center, left, right

    var mode: DockAccessory.FramingMode {
        switch self {
        case .automatic: .automatic
        case .center: .center
        case .left: .left
        case .right: .right
        }
    }
}
