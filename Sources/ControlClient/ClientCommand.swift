import DockCore
import Foundation

/// dockctl's verbs for a running dockd, over its control API: status, select, framing,
/// tracking, move, animate, home, privacy, limits, watch, metrics. `--json` prints the service's
/// own answers.
public struct ClientCommand {
    /// The verbs a running dockd serves, each with its line in `dockctl help`, in that order:
    /// the one list dockctl's parser, its help and its dispatch read.
    public static let verbSummaries: [(verb: String, summary: String)] = [
        ("status", "what dockd is doing: source, tracking, framing, pose, subjects (--json)"),
        ("select", "frame the subject at a point, by id, or back to automatic"),
        ("framing", "framing mode (automatic, center, left, right) or region of interest"),
        ("tracking", "system tracking on or off"),
        ("move", "turn at a rate, go to an orientation, or stop (system tracking off)"),
        ("animate", "yes, no, wakeup or kapow (system tracking off)"),
        ("home", "system tracking off, back to the home pose"),
        ("privacy", "system tracking off, the camera turned away and down"),
        ("limits", "show or narrow the motion limits"),
        ("watch", "print tracking, motion, accessory, battery or state events as they come"),
        ("metrics", "the Prometheus figures"),
    ]

    public static let verbs = Set(verbSummaries.map(\.verb))

    public static let help = """
        dockctl VERB [--socket PATH | --http HOST:PORT [--token-file FILE]] [--json] …

          status                          what dockd is doing: source, tracking, framing, pose, subjects
          select --point X,Y              frame the subject under this point (0…1, origin lower left)
          select --id UUID [--id UUID…]   frame these subjects (ids from status)
          select --auto                   back to automatic selection
          framing MODE                    automatic, center, left or right
          framing --region X,Y,W,H        keep subjects inside this part of the frame (origin upper left)
          tracking on|off                 system tracking (off: move and animate drive the motors)
          move --yaw-rate DEG_S [--pitch-rate DEG_S]
                                          turn at these rates until told otherwise
          move --stop                     stop the motors
          move --to YAW,PITCH [--duration S] [--relative]
                                          go to this orientation (degrees) in S seconds (default 1)
          animate yes|no|wakeup|kapow     a canned motion
          home                            system tracking off, back to the home pose
          privacy                         system tracking off, the camera turned away and down
          limits [--yaw MIN,MAX,SPEED] [--pitch MIN,MAX,SPEED]
                                          show or narrow the limits (degrees, degrees/s)
          watch [tracking|motion|accessory|battery|state] [--count N]
                                          print events as they come (default tracking)
          metrics                         the Prometheus figures

        The socket defaults to $OPENDOCK_SOCKET, else $XDG_RUNTIME_DIR/dockd.sock, else
        /tmp/dockd-UID.sock, as dockd's.
        """

    let verb: String
    let connection: ControlConnection
    let json: Bool
    var rest: [String]

    public init(verb: String, arguments: [String]) throws(UsageError) {
        self.verb = verb
        var endpoint: ControlEndpoint = .unix(path: ControlEndpoint.defaultSocketPath)
        var token: String?
        var json = false
        var rest: [String] = []
        var queue = arguments[...]
        while let argument = queue.popFirst() {
            switch argument {
            case "--socket":
                guard let path = queue.popFirst() else { throw UsageError("--socket needs a path") }
                endpoint = .unix(path: path)
            case "--http":
                guard let text = queue.popFirst(), let tcp = ControlEndpoint.parseTCP(text) else {
                    throw UsageError("--http needs [HOST:]PORT")
                }
                endpoint = tcp
            case "--token-file":
                guard let path = queue.popFirst(), let text = try? String(contentsOfFile: path, encoding: .utf8),
                    let line = text.split(whereSeparator: \.isNewline).first
                else {
                    throw UsageError("--token-file needs a readable file with the token on its first line")
                }
                token = line.trimmingCharacters(in: .whitespaces)
            case "--json": json = true
            default: rest.append(argument)
            }
        }
        connection = ControlConnection(endpoint: endpoint, token: token)
        self.json = json
        self.rest = rest
    }

    /// Runs the verb, writing lines to `output`; a usage error throws, a refusal is a failure.
    public func run(output: (String) -> Void) throws(UsageError) -> Result<Void, ControlClientError> {
        if verb == "watch" { return try watch(options: rest, output: output) }
        var arguments = VerbArguments(queue: rest[...])
        let request = try Self.request(verb, &arguments)
        if let extra = arguments.queue.first { throw UsageError("unexpected argument '\(extra)' for \(verb)") }
        let reply: ControlReply
        do { reply = try connection.request(request.method, request.path, json: request.body) } catch {
            return .failure(error)
        }
        if let message = reply.errorMessage { return .failure(ControlClientError(message)) }
        if json || verb == "metrics" {
            output(reply.text.trimmingCharacters(in: .newlines))
        } else {
            output(Self.describe(verb, reply.object ?? [:]))
        }
        return .success(())
    }

    typealias Request = (method: String, path: String, body: [String: Any]?)

    /// The arguments after the verb, read one at a time.
    struct VerbArguments {
        var queue: ArraySlice<String>

        mutating func next() -> String? { queue.popFirst() }

        mutating func value(_ name: String) throws(UsageError) -> String {
            guard let v = queue.popFirst() else { throw UsageError("\(name) needs a value") }
            return v
        }

        /// The value of `name`: `count` numbers separated by commas.
        mutating func numbers(_ name: String, count: Int) throws(UsageError) -> [Double] {
            let text = try value(name)
            let parts = text.split(separator: ",").compactMap { Double($0) }
            guard parts.count == count, parts.allSatisfy(\.isFinite) else {
                throw UsageError("\(name) expects \(count) numbers separated by commas, got '\(text)'")
            }
            return parts
        }
    }

    static let radians = Double.pi / 180

    /// The HTTP request a verb and its arguments stand for.
    static func request(_ verb: String, _ arguments: inout VerbArguments) throws(UsageError) -> Request {
        switch verb {
        case "status":
            return ("GET", "/v1/status", nil)
        case "metrics":
            return ("GET", "/metrics", nil)
        case "select":
            return try selectRequest(&arguments)
        case "framing":
            guard let first = arguments.next() else {
                throw UsageError("framing needs a mode (automatic, center, left, right) or --region X,Y,W,H")
            }
            guard first == "--region" else { return ("POST", "/v1/framing", ["mode": first]) }
            let r = try arguments.numbers("--region", count: 4)
            return ("POST", "/v1/region", ["x": r[0], "y": r[1], "width": r[2], "height": r[3]])
        case "tracking":
            guard let state = arguments.next(), state == "on" || state == "off" else {
                throw UsageError("tracking needs on or off")
            }
            return ("POST", "/v1/system-tracking", ["enabled": state == "on"])
        case "move":
            return try moveRequest(&arguments)
        case "animate":
            guard let name = arguments.next() else { throw UsageError("animate needs yes, no, wakeup or kapow") }
            return ("POST", "/v1/animate", ["motion": name])
        case "home", "privacy":
            return ("POST", "/v1/preset", ["name": verb])
        case "limits":
            var body: [String: Any] = [:]
            while let option = arguments.next() {
                guard option == "--yaw" || option == "--pitch" else {
                    throw UsageError("limits takes --yaw or --pitch MIN,MAX,SPEED, not '\(option)'")
                }
                let v = try arguments.numbers(option, count: 3)
                body[String(option.dropFirst(2))] = [
                    "min": v[0] * radians, "max": v[1] * radians, "maximumSpeed": v[2] * radians,
                ]
            }
            return body.isEmpty ? ("GET", "/v1/limits", nil) : ("POST", "/v1/limits", body)
        default:
            throw UsageError("unknown verb '\(verb)'")
        }
    }

    static func selectRequest(_ arguments: inout VerbArguments) throws(UsageError) -> Request {
        var ids: [String] = []
        var point: [Double]?
        var auto = false
        while let option = arguments.next() {
            switch option {
            case "--point": point = try arguments.numbers("--point", count: 2)
            case "--id": ids.append(try arguments.value("--id"))
            case "--auto": auto = true
            default: throw UsageError("select takes --point X,Y, --id UUID or --auto, not '\(option)'")
            }
        }
        if let point, ids.isEmpty, !auto { return ("POST", "/v1/select", ["x": point[0], "y": point[1]]) }
        if !ids.isEmpty, point == nil, !auto { return ("POST", "/v1/select", ["ids": ids]) }
        if auto, ids.isEmpty, point == nil { return ("POST", "/v1/select", ["ids": [String]()]) }
        throw UsageError("select takes one of --point X,Y, --id UUID… or --auto")
    }

    static func moveRequest(_ arguments: inout VerbArguments) throws(UsageError) -> Request {
        var yawRate: Double?
        var pitchRate: Double?
        var to: [Double]?
        var duration = 1.0
        var relative = false
        var stopping = false
        while let option = arguments.next() {
            switch option {
            case "--yaw-rate": yawRate = try arguments.numbers(option, count: 1)[0]
            case "--pitch-rate": pitchRate = try arguments.numbers(option, count: 1)[0]
            case "--to": to = try arguments.numbers(option, count: 2)
            case "--duration": duration = try arguments.numbers(option, count: 1)[0]
            case "--relative": relative = true
            case "--stop": stopping = true
            default:
                throw UsageError(
                    "move takes --yaw-rate, --pitch-rate, --to, --duration, --relative or --stop, not '\(option)'")
            }
        }
        if let to {
            return (
                "POST", "/v1/orientation",
                ["yaw": to[0] * radians, "pitch": to[1] * radians, "duration": duration, "relative": relative]
            )
        }
        guard stopping || yawRate != nil || pitchRate != nil else {
            throw UsageError("move needs --yaw-rate/--pitch-rate DEG_S, --to YAW,PITCH or --stop")
        }
        return ("POST", "/v1/velocity", ["yaw": (yawRate ?? 0) * radians, "pitch": (pitchRate ?? 0) * radians])
    }

    private func watch(options: [String], output: (String) -> Void) throws(UsageError) -> Result<
        Void, ControlClientError
    > {
        var stream = "tracking"
        var count: Int?
        var queue = options[...]
        while let option = queue.popFirst() {
            if option == "--count" {
                guard let text = queue.popFirst(), let n = Int(text), n > 0 else {
                    throw UsageError("--count needs a positive number")
                }
                count = n
            } else if ["tracking", "motion", "accessory", "battery", "state"].contains(option) {
                stream = option
            } else {
                throw UsageError(
                    "watch takes tracking, motion, accessory, battery or state, and --count N; not '\(option)'")
            }
        }
        var seen = 0
        do {
            try connection.events("/v1/events/\(stream)") { name, data in
                if json {
                    output(data)
                } else {
                    let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
                    output(Self.describeEvent(name, object))
                }
                seen += 1
                return count.map { seen < $0 } ?? true
            }
        } catch {
            return .failure(error)
        }
        return .success(())
    }

    // MARK: Human-readable answers

    static func degrees(_ value: Any?) -> String {
        guard let radians = value as? Double else { return "–" }
        return String(format: "%+.1f°", radians * 180 / .pi)
    }

    static func describeSubject(_ s: [String: Any]) -> String {
        let rect = s["rect"] as? [String: Double] ?? [:]
        func percent(_ key: String) -> String {
            (s[key] as? Double).map { String(format: "%3.0f%%", $0 * 100) } ?? "   –"
        }
        return String(
            format: "  %@  %@  rank %@  speaking %@  looking %@  at %.2f,%.2f size %.2fx%.2f",
            (s["id"] as? String ?? "?") as NSString, (s["kind"] as? String ?? "?") as NSString,
            ((s["saliencyRank"] as? Int).map(String.init) ?? "–") as NSString,
            percent("speakingConfidence") as NSString,
            percent("lookingAtCameraConfidence") as NSString, rect["x"] ?? 0, rect["y"] ?? 0, rect["width"] ?? 0,
            rect["height"] ?? 0)
    }

    static func describe(_ verb: String, _ o: [String: Any]) -> String {
        switch verb {
        case "status":
            let session = o["session"] as? [String: String] ?? [:]
            let motion = o["motion"] as? [String: Any] ?? [:]
            let positions = motion["positions"] as? [String: Any] ?? [:]
            let figures = o["figures"] as? [String: Any] ?? [:]
            let region = o["regionOfInterest"] as? [String: Double] ?? [:]
            let subjects = o["subjects"] as? [[String: Any]] ?? []
            var lines = [
                "accessory   \((o["accessory"] as? [String: Any])?["name"] as? String ?? "?")",
                "source      \(session["source"] ?? "?")",
                "detector    \(session["detector"] ?? "?"), audio \(session["audio"] ?? "off")",
                "tracking    system tracking \((o["systemTracking"] as? Bool) == true ? "on" : "off"), framing \(o["framingMode"] as? String ?? "?")"
                    + String(
                        format: ", region %.2f,%.2f %.2fx%.2f", region["x"] ?? 0, region["y"] ?? 0,
                        region["width"] ?? 1, region["height"] ?? 1),
                "pose        yaw \(degrees(positions["yaw"])), pitch \(degrees(positions["pitch"]))",
                String(
                    format: "figures     %d frames, %.1f fps, %d track calls, %d rate-contract errors",
                    figures["frames"] as? Int ?? 0,
                    figures["fps"] as? Double ?? 0, figures["trackCalls"] as? Int ?? 0,
                    figures["rateContractErrors"] as? Int ?? 0),
                "subjects    \(subjects.count)"
                    + ((o["locked"] as? [String]).map { $0.isEmpty ? "" : " (locked: \($0.joined(separator: ", ")))" }
                        ?? ""),
            ]
            lines += subjects.map(describeSubject)
            return lines.joined(separator: "\n")
        case "select":
            return "framing \((o["locked"] as? [String])?.joined(separator: ", ").nonEmpty ?? "the automatic choice")"
        case "framing":
            if let mode = o["framingMode"] as? String { return "framing \(mode)" }
            let r = o["regionOfInterest"] as? [String: Double] ?? [:]
            return String(
                format: "region of interest %.2f,%.2f %.2fx%.2f", r["x"] ?? 0, r["y"] ?? 0, r["width"] ?? 0,
                r["height"] ?? 0)
        case "tracking":
            return "system tracking \((o["systemTracking"] as? Bool) == true ? "on" : "off")"
        case "move":
            if let v = o["velocity"] as? [String: Any] {
                return "turning: yaw \(degrees(v["yaw"]))/s, pitch \(degrees(v["pitch"]))/s"
            }
            let v = o["orientation"] as? [String: Any] ?? [:]
            return
                "moving to yaw \(degrees(v["yaw"])), pitch \(degrees(v["pitch"]))\((o["relative"] as? Bool) == true ? " (relative)" : "")"
        case "animate":
            return "animating \(o["animation"] as? String ?? "?")"
        case "home", "privacy":
            let v = o["orientation"] as? [String: Any] ?? [:]
            return
                "system tracking off; going to the \(o["preset"] as? String ?? "?") pose (yaw \(degrees(v["yaw"])), pitch \(degrees(v["pitch"])), within the limits)"
        case "limits":
            return ["yaw", "pitch", "roll"].map { axis in
                guard let l = o[axis] as? [String: Double] else { return "\(axis)   none" }
                return "\(axis)   \(degrees(l["min"])) … \(degrees(l["max"])), at most \(degrees(l["maximumSpeed"]))/s"
            }.joined(separator: "\n")
        default:
            return "\(o)"
        }
    }

    static func describeEvent(_ name: String, _ o: [String: Any]) -> String {
        switch name {
        case "tracking":
            let subjects = o["subjects"] as? [[String: Any]] ?? []
            return "tracking \(subjects.count) subject\(subjects.count == 1 ? "" : "s")"
                + (subjects.isEmpty ? "" : "\n" + subjects.map(describeSubject).joined(separator: "\n"))
        case "motion":
            let p = o["positions"] as? [String: Any] ?? [:]
            let v = o["velocities"] as? [String: Any] ?? [:]
            return
                "motion yaw \(degrees(p["yaw"])) pitch \(degrees(p["pitch"]))  rates \(degrees(v["yaw"]))/s \(degrees(v["pitch"]))/s"
        case "accessory":
            return "event \(o["event"] as? String ?? "?")"
                + ((o["id"] as? Int).map { " \($0) \((o["pressed"] as? Bool) == true ? "pressed" : "released")" } ?? "")
                + ((o["factor"] as? Double).map { String(format: " factor %+.2f", $0) } ?? "")
        case "battery":
            return String(
                format: "battery %@ %.0f%% %@%@", (o["name"] as? String ?? "?") as NSString,
                (o["batteryLevel"] as? Double ?? 0) * 100,
                (o["chargeState"] as? String ?? "") as NSString, (o["lowBattery"] as? Bool) == true ? " LOW" : "")
        case "state":
            let accessory = o["accessory"] as? [String: Any] ?? [:]
            return "\(o["state"] as? String ?? "?") \(accessory["name"] as? String ?? "")"
        default:
            return "\(name) \(o)"
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
