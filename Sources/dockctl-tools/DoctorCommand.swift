import Capture
import ControlClient
import DockCore
import Foundation
import Options
import Perception
import Pipeline

/// `dockctl doctor`: one report on a setup, a line per thing checked — what was looked at,
/// what was found, and what to do when it is not right.
struct DoctorCommand {
    static let help = """
        dockctl doctor — check a setup: models, cameras, video out, serial ports, microphones, the service.

        Usage: dockctl doctor [--models DIR]
               dockctl doctor [--camera DEVICE] [--gimbal SPEC] [--audio-device NAME] [--listen SECONDS]
                              [dockd's options: --size, --fps, --pan-direction, --mic-order, …]
               dockctl doctor --source FILE --gimbal sim [--sim-mount …]   (a simulated head)

        Each line is ok, warning or problem, with what was checked, what was found and, unless
        ok, what to do. With no setup named it only looks: models, cameras, video out, serial
        ports, sound cards, the service. Name the setup as dockd would run it and it tries it:
        --camera streams the camera for 3 s (frame rate, damaged and lost frames); --gimbal
        turns each axis by 3° and back and reads the head's answer (does it answer, does it turn
        the way it is told), and with --camera also watches the picture (as dockctl calibrate
        does) to hold which way it turns the camera against --pan-direction/--tilt-direction;
        --audio-device listens for 3 s (level, clipping, a mono microphone on two channels), and
        with --camera runs the pipeline for --listen seconds (default 15, the head still) while
        someone talks, to hold whose lips move against the sound's side (--mic-order). On a
        machine with no camera, head or microphone it says so: dockd then runs the demo and
        recordings only. Exits 1 when a line is a problem.
        """

    enum Status: String { case ok, warning, problem }

    struct Finding: Equatable {
        var status: Status
        var line: String
    }

    /// Where the doctor looks: the real system, or a test's stand-ins.
    struct Surroundings {
        var video: any VideoDeviceSystem = LinuxVideoDeviceSystem()
        /// Prefixed to /sys, /proc and /dev paths.
        var root = ""
        var models = ModelRegistry.standard()
        var controlSocket = ControlEndpoint.defaultSocketPath
        /// An ALSA configuration to read the microphones through (tests feed one from a file).
        var alsaConfiguration: String?
        /// A simulated setup whose microphones' wiring is checked (tests; a live one is named
        /// with --camera and --audio-device).
        var simulatedListening: SessionConfiguration?
        /// Who runs the doctor; nil = ask the system.
        var membership: Membership?
    }

    /// The setup named on the command line, which the doctor tries for real.
    struct Trials {
        var configuration: SessionConfiguration
        var stream = false
        var head = false
        var microphones: String?
        var listenSeconds = 15.0
    }

    var surroundings = Surroundings()
    var trials: Trials?

    init(arguments: [String]) throws {
        var rest = arguments[...]
        var setup: [String] = []
        var listenSeconds = 15.0
        while let argument = rest.popFirst() {
            switch argument {
            case "--models":
                guard let folder = rest.popFirst() else { throw UsageError("--models needs a directory") }
                surroundings.models = ModelRegistry.standard(userDirectory: folder)
                setup += [argument, folder]
            case "--listen":
                guard let text = rest.popFirst(), let seconds = Double(text), (3...120).contains(seconds) else {
                    throw UsageError("--listen expects seconds between 3 and 120")
                }
                listenSeconds = seconds
            default: setup.append(argument)
            }
        }
        guard setup.count > 2 || (setup.count > 0 && setup.first != "--models") else { return }
        trials = try Self.trials(setup, listenSeconds: listenSeconds)
    }

    init(surroundings: Surroundings, trials: Trials? = nil) {
        self.surroundings = surroundings
        self.trials = trials
    }

    /// What the named setup asks to be tried: the options are dockd's, and so are their errors.
    static func trials(_ options: [String], listenSeconds: Double) throws -> Trials {
        let c: SessionConfiguration
        do { c = try DockdOptions.parse(options, checkCombinations: false).configuration } catch {
            throw UsageError("\(error.message) (doctor takes dockd's options: see dockctl doctor --help)")
        }
        var trials = Trials(configuration: c, listenSeconds: listenSeconds)
        let live: Bool = if case .camera = c.source { true } else { false }
        trials.stream = live
        if case .device = c.resolvedGimbal { trials.head = true }
        if !live, case .file = c.source, options.contains("--gimbal"), c.resolvedGimbal == .sim { trials.head = true }
        trials.microphones = c.audioDevice
        return trials
    }

    func run() -> [Finding] {
        // Every video node opened once, for the cameras and the virtual cameras alike.
        let discovered = V4L2Discovery.devices(system: surroundings.video)
        var findings = models() + cameras(discovered) + videoOut(discovered.devices) + serialPorts() + microphones()
        findings += service()
        findings += permissions() + tried()
        let hardware =
            findings.contains { $0.line.hasPrefix("camera /dev") }
            || findings.contains { $0.line.hasPrefix("serial ") && $0.status != .warning }
            || findings.contains { $0.line.hasPrefix("microphones: ") && $0.status == .ok }
        if !hardware {
            findings.append(
                Finding(
                    status: .warning,
                    line:
                        "hardware: no camera, serial head or microphone found on this machine; dockd runs the demo and recordings with a simulated head (dockd --demo)"
                ))
        }
        return findings
    }

    /// The checks that stream, turn and listen, for the setup named.
    func tried() -> [Finding] {
        var findings: [Finding] = []
        if let trials {
            let c = trials.configuration
            if trials.stream, case .camera(let path) = c.source { findings += streamFindings(c, path: path) }
            if trials.head { findings += headFindings(c) }
            if let device = trials.microphones {
                findings += microphoneFindings(c, device: device)
                if trials.stream,
                    !findings.contains(where: { $0.status == .problem && $0.line.hasPrefix("microphones") })
                {
                    findings.append(wiringFinding(c, seconds: trials.listenSeconds, simulated: false))
                }
            }
        }
        if let listening = surroundings.simulatedListening {
            findings.append(wiringFinding(listening, seconds: trials?.listenSeconds ?? 15, simulated: true))
        }
        return findings
    }

    static func describe(_ findings: [Finding]) -> String {
        findings.map { $0.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + $0.line }
            .joined(separator: "\n")
    }

    private func models() -> [Finding] {
        ModelRegistry.entries.map { entry in
            do {
                let path = try surroundings.models.resolve(entry.name)
                return Finding(status: .ok, line: "model \(entry.name): \(path), sha256 verified (\(entry.licence))")
            } catch {
                if case .digestMismatch(let path, _, _)? = error as? ModelError {
                    return Finding(
                        status: .problem,
                        line:
                            "model \(entry.name): \(path) is not the expected file (sha256 differs); remove it and run Scripts/setup"
                    )
                }
                return Finding(
                    status: .warning,
                    line:
                        "model \(entry.name): \(entry.file) not found in \(surroundings.models.searchDirectories.joined(separator: ", ")), so \(entry.without); run Scripts/setup, which downloads it, or put \(entry.location) in models/"
                )
            }
        }
    }

    private func cameras(_ discovered: (devices: [V4L2DeviceInfo], failures: [String])) -> [Finding] {
        let (devices, failures) = discovered
        var findings = failures.map { failure in
            Finding(
                status: .problem,
                line:
                    "camera \(failure); if it says permission denied, add yourself to the video group (sudo usermod -aG video $USER) and log in again"
            )
        }
        // A virtual camera someone writes to captures too; it is video out's, not a camera.
        let capture = devices.filter { $0.isVideoCapture && $0.driver != Self.loopbackDriver }
        for device in capture {
            let name = device.stableNames.first.map { " (\($0))" } ?? ""
            let mjpeg = device.formats.first { $0.fourcc == .mjpeg }
            let largest = device.formats.flatMap(\.sizes).max { $0.width * $0.height < $1.width * $1.height }
            let size = largest.map { " up to \($0.width)x\($0.height)" } ?? ""
            if mjpeg != nil {
                findings.append(
                    Finding(status: .ok, line: "camera \(device.path)\(name): \(device.card), MJPEG\(size)"))
            } else {
                findings.append(
                    Finding(
                        status: .warning,
                        line:
                            "camera \(device.path)\(name): \(device.card) offers no MJPEG; uncompressed 720p at 30 fps needs more USB bandwidth than most ports give: use --size 640x480 or a USB 3 port"
                    ))
            }
        }
        if capture.isEmpty && failures.isEmpty {
            findings.append(
                Finding(
                    status: .warning,
                    line: "camera: no V4L2 capture device (/dev/video*); plug a webcam in (dockctl devices lists them)")
            )
        }
        return findings
    }

    static let loopbackDriver = "v4l2 loopback"

    private func videoOut(_ discovered: [V4L2DeviceInfo]) -> [Finding] {
        let module = surroundings.root + "/sys/module/v4l2loopback"
        let devices = discovered.filter { $0.driver == Self.loopbackDriver }
        // Each one this user could open (discovery just did): where dockd writes, and readers read.
        let nodes = devices.map { device in
            Finding(
                status: .ok,
                line:
                    "video out \(device.path) (\(device.card)): a v4l2loopback device this user can open; dockd --video-out \(device.path) writes there"
            )
        }
        guard FileManager.default.fileExists(atPath: module) else {
            return [
                Finding(
                    status: .warning,
                    line:
                        "video out: v4l2loopback is not loaded; for --video-out: sudo modprobe v4l2loopback video_nr=9 card_label=OpenDock exclusive_caps=1"
                )
            ]
        }
        let caps = (try? String(contentsOfFile: module + "/parameters/exclusive_caps", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let caps, caps.hasPrefix("Y") || caps.hasPrefix("1") {
            return [
                Finding(status: .ok, line: "video out: v4l2loopback loaded with exclusive_caps (browsers see a camera)")
            ] + nodes
        }
        return [
            Finding(
                status: .warning,
                line:
                    "video out: v4l2loopback loaded without exclusive_caps (\(caps ?? "unknown")); browsers will not list it as a camera: reload it with exclusive_caps=1"
            )
        ] + nodes
    }

    private func serialPorts() -> [Finding] {
        let dev = surroundings.root + "/dev"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dev)) ?? [])
            .filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") }.sorted()
        guard !names.isEmpty else {
            return [
                Finding(
                    status: .warning,
                    line:
                        "serial: no /dev/ttyUSB* or /dev/ttyACM*; a gimbal or PTZ head on USB serial shows there (UVC and network heads need none)"
                )
            ]
        }
        return names.map { name in
            let path = dev + "/" + name
            if access(path, R_OK | W_OK) == 0 {
                return Finding(
                    status: .ok, line: "serial \(path): readable and writable (dockctl calibrate checks the head on it)"
                )
            }
            return Finding(
                status: .problem,
                line:
                    "serial \(path): not writable by this user; add yourself to the dialout group (sudo usermod -aG dialout $USER) and log in again"
            )
        }
    }

    private func microphones() -> [Finding] {
        let cards = (try? String(contentsOfFile: surroundings.root + "/proc/asound/cards", encoding: .utf8)) ?? ""
        let names = cards.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "]", maxSplits: 1)
            guard parts.count == 2, line.first(where: { !$0.isWhitespace })?.isNumber == true else { return nil }
            // " 0 [C920 ]: USB-Audio - HD Pro Webcam C920": the long name follows the driver's.
            let rest = String(parts[1])
            return rest.range(of: " - ").map { String(rest[$0.upperBound...]) }?
                .trimmingCharacters(in: .whitespaces)
        }
        guard !names.isEmpty else {
            return [
                Finding(
                    status: .warning,
                    line:
                        "microphones: no sound card (/proc/asound/cards); speaker following needs the webcam's microphones or a USB array (dockctl listen DEVICE checks one)"
                )
            ]
        }
        return [
            Finding(
                status: .ok,
                line:
                    "microphones: sound cards \(names.joined(separator: ", ")) (dockctl listen checks level and direction)"
            )
        ]
    }

    private func service() -> [Finding] {
        let socket = surroundings.controlSocket
        guard FileManager.default.fileExists(atPath: socket) else {
            return [Finding(status: .ok, line: "service: no dockd running (no control socket at \(socket))")]
        }
        return [
            Finding(
                status: .ok, line: "service: a dockd control socket at \(socket) (dockctl status asks it how it runs)")
        ]
    }
}
