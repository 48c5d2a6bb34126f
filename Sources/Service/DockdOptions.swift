import Audio
import DockCore
import DockKit
import Foundation
import Motion
import Vision

/// A command line that cannot be understood; dockd exits 64 (EX_USAGE) with this message.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// dockd's command line.
public struct DockdOptions: Sendable {
    public var configuration = SessionConfiguration()
    public var quiet = false
    public var tracePath: String?
    public var showHelp = false
    /// The control API's Unix socket; nil = no control API (`--no-control`).
    public var controlSocket: String? = DockdOptions.defaultControlSocket
    /// Also serve the control API on TCP here (`--http`).
    public var httpEndpoint: ControlEndpoint?
    /// The token TCP clients must send (`--token-file`); required for a non-loopback address.
    public var token: String?
    /// An input device whose keys become accessory events (`--buttons`).
    public var buttonsDevice: String?
    /// How events are logged on stderr (`--log-format`).
    public var logFormat = EventLog.Format.text

    /// $OPENDOCK_SOCKET, else dockd.sock in systemd's RuntimeDirectory or the user's runtime
    /// folder, else /tmp/dockd-UID.sock. dockctl looks in the same places.
    public static var defaultControlSocket: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["OPENDOCK_SOCKET"], !path.isEmpty { return path }
        if let folder = environment["RUNTIME_DIRECTORY"], !folder.isEmpty { return folder + "/dockd.sock" }
        if let folder = environment["XDG_RUNTIME_DIR"], !folder.isEmpty { return folder + "/dockd.sock" }
        return "/tmp/dockd-\(getuid()).sock"
    }

    public static let help = """
    dockd — keeps a camera on a motorized gimbal pointed at the person in view.

    Usage: dockd [--config FILE] [--demo | --source FILE | --camera DEVICE] [options]

      --config FILE           settings from a JSON file (README, "Configuration file"); options
                              on the command line override it

    Source
      --demo                  run on the generated demo scene (the default)
      --source FILE           a recorded video: MJPEG AVI, MP4/H.264, MKV, anything FFmpeg reads
      --camera DEVICE         a live V4L2 camera: /dev/videoN or a stable /dev/v4l/by-id/… name
                              (see dockctl devices); reopened when it comes back after an unplug
      --size WxH              size asked of the camera (default 1280x720; MJPEG preferred)
      --fps N                 frame rate asked of the camera (default 30)
      --calibration FILE      OpenCV calibration (YAML or JSON) for the camera's intrinsics
      --hfov DEG              horizontal field of view of the recording (default 90) or of the
                              camera when there is no calibration (default 70)
      --media DIR             photos for the demo scene (default ./.cache/media or $OPENDOCK_MEDIA)

    Gimbal and camera
      --gimbal KIND           sim: closed loop, a simulated gimbal turns a virtual camera inside
                              the recording (default for recordings); none: dry run on the
                              source's own frames, commands computed but nothing moves (default
                              with --camera); with --camera, a real device:
                                simplebgc:PATH[@BAUD]   SimpleBGC controller (default 115200)
                                visca:PATH[@BAUD]       VISCA camera on serial (default 9600)
                                visca-udp:HOST[:PORT]   VISCA over IP (default port 52381)
                                visca-tcp:HOST:PORT     raw VISCA over TCP
                                pelco:PATH[@BAUD][/ADDR] Pelco-D head (default 9600, address 1)
                                maestro:PATH            Pololu Maestro servos (pan 0, tilt 1)
                                uvc                     the camera's own pan/tilt controls
      --view WxH              image size of the camera on the gimbal (default 1280x720)
      --view-hfov DEG         its horizontal field of view (default 60)
      --max-speed DEG_S       simulated gimbal top speed (default 172)
      --accel DEG_S2          simulated gimbal acceleration limit (default 688)
      --latency MS            simulated gimbal command latency (default 40)
      --buttons DEVICE        a remote's or the gimbal's keys (/dev/input/by-id/…-event-kbd):
                              camera keys become shutter/flip/zoom events, play/pause switches
                              system tracking, other keys are button events

    Pipeline
      --detector yunet|rfb|haar|lbp
                              face detector (default yunet; falls back to haar without the model)
      --bodies ssdlite|yolox|hog|none
                              body detector, a few times a second (default ssdlite; falls back
                              to hog without the model)
      --track-objects LIST    also track these COCO classes as objects, e.g. cat,dog (YOLOX-nano)
      --detect-width PX       width the detector runs at (default 320)
      --models DIR            look for model files here first (also $OPENDOCK_MODELS)
      --rate HZ               track() calls per second, 10 to 30 (default 30)
      --control-law dock|pid  dock: OpenDock's law (default); pid: a reproduction of
                              obs-face-tracker's PID, for comparison
      --gain N                dock law: proportional gain per axis, s⁻¹ (default 4)
      --dead-band DEG         dock law: a subject closer than this is left alone (default 2)
      --framing MODE          where the subject sits: automatic (default), center, left or right
                              (a third from that side, leaving room for overlays)
      --region X,Y,W,H        keep subjects inside this part of the frame (0…1, origin upper
                              left), e.g. 0.21875,0,0.5625,1 for a square crop of 16:9
      --threads N             threads OpenCV may use

    Speakers
      --audio FILE            a WAV recorded with the video: follow whoever speaks (stereo gives
                              the direction; generated scenes with speech synthesize their own)
      --audio-device NAME     with --camera: the microphones to listen to, an ALSA capture device
                              (e.g. plughw:CARD=C920, default, or a card number; list them with
                              arecord -L); a missing or unusable one is reported and tracking
                              goes on by vision
      --lips facemesh|motion|off
                              read lips while following speakers: FaceMesh mouth opening
                              (default; mouth motion when the model is missing), the cheaper
                              mouth motion, or not at all
      --no-audio              frame by vision alone
      --mics room|camera      where the microphone pair is: fixed at the gimbal's pivot (default)
                              or on the camera, turning with it
      --mic-spacing M         distance between the two microphones (default 0.15)

    Control API (README, "Control API")
      --control-socket PATH   serve the control API and status page on this Unix socket
                              (default $OPENDOCK_SOCKET, else $XDG_RUNTIME_DIR/dockd.sock, else
                              /tmp/dockd-UID.sock)
      --no-control            no control API
      --http [HOST:]PORT      also serve it on TCP (HOST defaults to 127.0.0.1); any address but
                              loopback needs --token-file
      --token-file FILE       TCP clients must send this file's first line as a bearer token

    Run
      --output FILE           write an annotated video (MJPEG AVI) of what the camera saw
      --trace FILE            write a per-frame CSV trace (time, pose, commands, subjects)
      --fast                  run as fast as possible instead of at the source's frame rate
      --loop                  play the demo scene again and again (a demo service)
      --duration SECONDS      stop after this much media time
      --frames N              stop after N frames
      --quiet                 no live status line
      --log-format text|json  log lines as text (default) or one JSON object per event
      -h, --help              this text

    Exit status: 0 done (or stopped by SIGINT/SIGTERM, motors stopped), 1 runtime error,
    64 usage error.
    """

    public init() {}

    /// The command line, after the configuration file it names (`--config FILE`): the file's
    /// settings come first, so options on the command line override them; a source on the
    /// command line replaces the file's.
    public static func parse(_ arguments: [String]) throws(UsageError) -> DockdOptions {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--config") {
            guard index + 1 < arguments.count else { throw UsageError("--config needs a file") }
            let path = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
            guard !arguments.contains("--config") else { throw UsageError("--config may be given once") }
            let sourceOptions: Set<String> = ["--demo", "--source", "--camera"]
            let sourceOnCommandLine = arguments.contains { sourceOptions.contains($0) }
            let settings = try DockdConfigFile.load(path: path)
            let fromFile = settings.filter { !(sourceOnCommandLine && sourceOptions.contains($0.tokens[0])) }.flatMap(\.tokens)
            arguments = fromFile + arguments
        }
        return try parseCommandLine(arguments, checkCombinations: true)
    }

    /// Options one by one; `checkCombinations` adds the checks that look at several together
    /// (one source, a real gimbal only with a camera, audio that fits the source).
    static func parseCommandLine(_ arguments: [String], checkCombinations: Bool) throws(UsageError) -> DockdOptions {
        var options = DockdOptions()
        var c = options.configuration
        var rest = arguments[...]
        var sawDemo = false

        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") || v.count <= 2 else { throw UsageError("\(name) needs a value") }
            return v
        }
        func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
            let text = try value(name)
            guard let v = Double(text), v.isFinite else { throw UsageError("\(name) expects a number, got '\(text)'") }
            guard range.contains(v) else { throw UsageError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), got \(text)") }
            return v
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try value(name)
            guard let v = Int(text) else { throw UsageError("\(name) expects a whole number, got '\(text)'") }
            guard range.contains(v) else { throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(text)") }
            return v
        }

        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": options.showHelp = true
            case "--demo": sawDemo = true; c.source = .demo
            case "--source": c.source = .file(try value(argument))
            case "--camera": c.source = .camera(try value(argument))
            case "--size":
                let text = try value(argument)
                guard let size = PixelSize(parsing: text), (16...8192).contains(size.width), (16...8192).contains(size.height) else {
                    throw UsageError("--size expects WIDTHxHEIGHT, got '\(text)'")
                }
                c.captureSize = size
            case "--fps": c.captureFrameRate = try number(argument, in: 1...240)
            case "--calibration": c.calibrationFile = try value(argument)
            case "--hfov": c.sourceFieldOfView = try number(argument, in: 10...170)
            case "--media": c.mediaDirectory = try value(argument)
            case "--gimbal":
                let text = try value(argument)
                guard let g = GimbalChoice(parsing: text) else {
                    throw UsageError("--gimbal must be sim, none, simplebgc:PATH, visca:PATH, visca-udp:HOST, visca-tcp:HOST:PORT, pelco:PATH, maestro:PATH or uvc; got '\(text)'")
                }
                c.gimbal = g
            case "--view":
                let text = try value(argument)
                guard let size = PixelSize(parsing: text), (64...7680).contains(size.width), (64...4320).contains(size.height) else {
                    throw UsageError("--view expects WIDTHxHEIGHT between 64x64 and 7680x4320, got '\(text)'")
                }
                c.viewSize = size
            case "--view-hfov": c.viewFieldOfView = try number(argument, in: 10...170)
            case "--max-speed": c.gimbalModel.maximumSpeed = try number(argument, in: 1...2000) * .pi / 180
            case "--accel": c.gimbalModel.maximumAcceleration = try number(argument, in: 1...20000) * .pi / 180
            case "--latency": c.gimbalModel.latency = try number(argument, in: 0...1000) / 1000
            case "--detector":
                let text = try value(argument)
                guard let d = FaceDetectorChoice(rawValue: text) else { throw UsageError("--detector must be yunet, rfb, haar or lbp, got '\(text)'") }
                c.detector = d
            case "--bodies":
                let text = try value(argument)
                guard let d = BodyDetectorChoice(rawValue: text) else { throw UsageError("--bodies must be ssdlite, yolox, hog or none, got '\(text)'") }
                c.bodyDetector = d
            case "--track-objects":
                let names = try value(argument).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                for name in names where !COCOClasses.names.contains(name) {
                    throw UsageError("--track-objects: '\(name)' is not a COCO class (e.g. cat, dog, cup, laptop)")
                }
                guard !names.isEmpty else { throw UsageError("--track-objects needs class names, e.g. cat,dog") }
                c.objectClasses = Set(names)
            case "--detect-width": c.detectorInputWidth = try integer(argument, in: 64...4096)
            case "--models": c.modelsDirectory = try value(argument)
            case "--rate": c.trackRate = try number(argument, in: 10...30)
            case "--control-law":
                let text = try value(argument)
                guard let law = ControlLawChoice(rawValue: text) else { throw UsageError("--control-law must be dock or pid, got '\(text)'") }
                c.controlLaw = law
            case "--gain":
                let gain = try number(argument, in: 0.1...50)
                c.framing.yawGain = gain
                c.framing.pitchGain = gain
            case "--dead-band": c.framing.deadBand = try number(argument, in: 0...20) * .pi / 180
            case "--framing":
                let text = try value(argument)
                guard let mode = FramingModeName(rawValue: text) else { throw UsageError("--framing expects automatic, center, left or right, got '\(text)'") }
                c.framingMode = mode.mode
            case "--region":
                let text = try value(argument)
                let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                      FramingGeometry.region(fromUpperLeft: CGRect(x: x, y: y, width: w, height: h)) != nil else {
                    throw UsageError("--region expects X,Y,W,H of the frame (0…1, origin upper left, at least 0.05 wide and high, inside the frame), got '\(text)'")
                }
                c.regionOfInterest = CGRect(x: x, y: y, width: w, height: h)
            case "--threads": c.openCVThreads = try integer(argument, in: 1...64)
            case "--output": c.outputVideo = try value(argument)
            case "--trace": options.tracePath = try value(argument)
            case "--audio": c.audioFile = try value(argument)
            case "--audio-device":
                // A bare card number means that card through ALSA's converting plug layer.
                let device = try value(argument)
                c.audioDevice = device.allSatisfy(\.isNumber) ? "plughw:\(device)" : device
            case "--no-audio": c.useAudio = false
            case "--lips":
                let text = try value(argument)
                guard let choice = LipChoice(rawValue: text) else { throw UsageError("--lips expects facemesh, motion or off, got '\(text)'") }
                c.lips = choice
            case "--mics":
                let text = try value(argument)
                guard let mounting = MicrophoneArray.Mounting(rawValue: text) else { throw UsageError("--mics expects room or camera, got '\(text)'") }
                c.microphones.mounting = mounting
            case "--mic-spacing": c.microphones.spacing = try number(argument, in: 0.02...2)
            case "--fast": c.realTime = false
            case "--loop": c.scene.loops = true
            case "--duration": c.maximumDuration = try number(argument, in: 0.01...1e7)
            case "--frames": c.maximumFrames = try integer(argument, in: 1...Int(Int32.max))
            case "--quiet": options.quiet = true
            case "--log-format":
                let text = try value(argument)
                guard let format = EventLog.Format(rawValue: text) else { throw UsageError("--log-format expects text or json, got '\(text)'") }
                options.logFormat = format
            case "--buttons": options.buttonsDevice = try value(argument)
            case "--control-socket": options.controlSocket = try value(argument)
            case "--no-control": options.controlSocket = nil
            case "--http":
                let text = try value(argument)
                guard let endpoint = ControlEndpoint.parseTCP(text) else { throw UsageError("--http expects [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080, got '\(text)'") }
                options.httpEndpoint = endpoint
            case "--token-file":
                let path = try value(argument)
                guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                      let line = text.split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(in: .whitespaces) }), line.count >= 8 else {
                    throw UsageError("--token-file \(path): cannot read a token of at least 8 characters from its first line")
                }
                options.token = line
            default:
                throw UsageError(argument.hasPrefix("-") ? "unknown option '\(argument)' (see dockd --help)"
                                                         : "unexpected argument '\(argument)' (see dockd --help)")
            }
        }
        guard checkCombinations else {
            options.configuration = c
            return options
        }
        var sources = sawDemo ? 1 : 0
        if arguments.contains("--source") { sources += 1 }
        if arguments.contains("--camera") { sources += 1 }
        if sources > 1 { throw UsageError("--demo, --source and --camera exclude each other") }
        if let http = options.httpEndpoint, !http.isLoopback, options.token == nil {
            throw UsageError("--http \(http) is reachable from other machines; give --token-file FILE, or serve on 127.0.0.1")
        }
        if c.gimbal == .sim, case .camera = c.source {
            throw UsageError("--gimbal sim cannot move a real camera; name the gimbal (e.g. --gimbal simplebgc:/dev/ttyUSB0) or use none")
        }
        if case .device = c.gimbal {
            guard case .camera = c.source else { throw UsageError("a real --gimbal needs a live --camera; recordings run with --gimbal sim or none") }
        }
        if case .camera = c.source {
            if c.audioFile != nil { throw UsageError("--audio FILE goes with a recording; a live --camera listens with --audio-device NAME") }
        } else if c.audioDevice != nil {
            throw UsageError("--audio-device listens live and goes with --camera; a recording takes --audio FILE")
        }
        options.configuration = c
        return options
    }

    private static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}

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
