import ControlClient
import DockCore
import DockEngine
import DockKit
import Foundation
import Motion
import Pipeline

/// The control API: DockKit's verbs as JSON over HTTP, event streams, Prometheus metrics, the
/// live preview and the status page, for one running session. Every refusal is a JSON object
/// `{"error": "...", "status": N}` whose message says what was wrong and what to do.
public final class ControlAPI: Sendable {
    public let manager: DockAccessoryManager
    /// The dock this dockd drives.
    package let accessory: LocalDock
    public let monitor: SessionMonitor
    /// What the session runs on (source, detector, gimbal, audio), shown in the status.
    public let about: [String: String]
    /// Required on TCP when set (Authorization: Bearer TOKEN, or ?token=TOKEN for a browser).
    let token: String?
    /// Clients connected to each event stream now.
    let streamClients = Protected<[String: Int]>([:])
    /// Events dropped from each stream because a client stopped reading (its oldest first).
    let streamDrops = Protected<[String: Int]>([:])
    /// Where the API says what went wrong on its own (a client that fell behind); set by dockd.
    private let noticeHandler = Protected<(@Sendable (String) -> Void)?>(nil)
    /// The DockKit program whose session holds the dock, if one does (its pid when known).
    private let hold = Protected<SessionHold?>(nil)

    struct SessionHold: Sendable {
        var process: Int32?
        var description: String { process.map { "a DockKit program (pid \($0))" } ?? "a DockKit program" }
    }

    package init(
        manager: DockAccessoryManager, accessory: LocalDock, monitor: SessionMonitor,
        about: [String: String] = [:], token: String? = nil
    ) {
        self.manager = manager
        self.accessory = accessory
        self.monitor = monitor
        self.about = about
        self.token = token
    }

    /// Says each notice (one line, said once per cause) through `handler`.
    public func whenNotice(_ handler: @escaping @Sendable (String) -> Void) {
        noticeHandler.withLock { $0 = handler }
    }

    /// The routes: method and path → what answers.
    package static let verbs: [(method: String, path: String, summary: String)] = [
        ("GET", "/", "the status page"),
        ("GET", "/v1/status", "everything at once: accessory, tracking, framing, motors, figures"),
        ("GET", "/v1/accessories", "docked accessories"),
        ("POST", "/v1/system-tracking", "{\"enabled\": bool}"),
        ("POST", "/v1/framing", "{\"mode\": \"automatic|center|left|right\"}"),
        ("POST", "/v1/region", "{\"x\", \"y\", \"width\", \"height\"} (0…1, origin upper left)"),
        ("POST", "/v1/select", "{\"x\", \"y\"} (a point, origin lower left) or {\"ids\": [uuid…]} ([] = automatic)"),
        ("POST", "/v1/velocity", "{\"yaw\", \"pitch\", \"roll\"} rad/s; all 0 stops"),
        ("POST", "/v1/orientation", "{\"yaw\", \"pitch\", \"roll\", \"duration\", \"relative\"} radians, seconds"),
        ("GET", "/v1/limits", "the limits in force"),
        ("POST", "/v1/limits", "{\"yaw\": {\"min\", \"max\", \"maximumSpeed\"}, …}"),
        ("POST", "/v1/animate", "{\"motion\": \"yes|no|wakeup|kapow\"}"),
        ("POST", "/v1/preset", "{\"name\": \"home|privacy\"}: system tracking off, then a calm move there"),
        ("POST", "/v1/session", "a DockKit program's session: Upgrade: opendock-dockkit/1, then JSON lines"),
        ("GET", "/v1/events/tracking", "tracking states (server-sent events)"),
        ("GET", "/v1/events/motion", "motion states (server-sent events)"),
        ("GET", "/v1/events/accessory", "buttons, shutter, flip, zoom (server-sent events)"),
        ("GET", "/v1/events/battery", "battery states (server-sent events)"),
        ("GET", "/v1/events/state", "docked / undocked (server-sent events)"),
        ("GET", "/v1/preview.mjpeg", "live preview, annotated (multipart JPEG)"),
        ("GET", "/v1/snapshot.jpg", "the newest frame, annotated (?view=output: what the virtual camera shows)"),
        ("GET", "/v1/frames.mjpeg", "the camera's frames, clean, for a program's own vision (?fps=1…30, default 15)"),
        ("GET", "/metrics", "Prometheus text format"),
    ]

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        // The page itself holds nothing secret; everything it fetches needs the token.
        if request.overTCP, let token, request.path != "/" {
            let given =
                request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
                ?? request.query["token"]
            guard given == token else {
                return .error(
                    401,
                    given == nil
                        ? "a token is required on TCP: send Authorization: Bearer TOKEN (the token dockd was started with)"
                        : "wrong token: send the token dockd was started with")
            }
        }
        let known = Self.verbs.filter { $0.path == request.path }
        guard !known.isEmpty else {
            return .error(
                404,
                "no such resource \(request.path); the paths are in docs/control-api.md, e.g. GET /v1/status"
            )
        }
        let method = request.method == "PUT" ? "POST" : request.method
        guard known.contains(where: { $0.method == method || ($0.method == "GET" && method == "HEAD") }) else {
            let allowed = known.map(\.method).joined(separator: ", ")
            return HTTPResponse(
                status: 405, contentType: "application/json", headers: ["Allow": allowed],
                body: HTTPResponse.error(405, "\(request.method) is not allowed on \(request.path); use \(allowed)")
                    .body)
        }
        do {
            return try route(method == "HEAD" ? "GET" : method, request)
        } catch let error as RequestError {
            return .error(error.status, error.message)
        } catch let error as JSONFieldError {
            return .error(400, error.description)
        } catch let error as DockKitError {
            let refused = Self.refusalFields(error, path: request.path)
            return .json(refused["status"] as? Int ?? 500, refused)
        } catch {
            return .error(500, "\(error)")
        }
    }

    /// The session ops that are the HTTP commands, with their paths.
    static let sessionPaths: [String: String] = [
        "systemTracking": "/v1/system-tracking", "framing": "/v1/framing", "region": "/v1/region",
        "select": "/v1/select", "velocity": "/v1/velocity", "limits": "/v1/limits",
    ]

    /// Takes the dock for a session; false when another holds it.
    func claimHold(process: Int32?) -> Bool {
        hold.withLock { hold in
            guard hold == nil else { return false }
            hold = SessionHold(process: process)
            return true
        }
    }

    func releaseHold() { hold.withLock { $0 = nil } }

    var holder: SessionHold? { hold.withLock { $0 } }

    /// `POST /v1/session`: switches the connection to a DockKit session, unless one holds the dock.
    private func openSession(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.headers["upgrade"]?.lowercased() == DockSession.protocolName else {
            throw RequestError(
                426, "\(request.path) is a DockKit program's session: send Upgrade: \(DockSession.protocolName)")
        }
        if let holder { throw RequestError(409, "\(holder.description) holds the dock; only one may at a time") }
        return HTTPResponse(
            status: 101, contentType: "",
            body: .upgrade(protocolName: DockSession.protocolName) { [self] connection in
                guard claimHold(process: connection.peerProcess) else {
                    let message = "\(holder?.description ?? "another program") holds the dock; only one may at a time"
                    try? JSONLineChannel(descriptor: connection.descriptor).send([
                        "id": 0, "error": message, "status": 409,
                    ])
                    return
                }
                DockKitSessionServer(api: self, connection: connection).run()
            })
    }
    /// A request the API cannot act on; status and message.
    struct RequestError: Error {
        var status: Int
        var message: String
        init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    private func route(_ method: String, _ request: HTTPRequest) throws -> HTTPResponse {
        switch (method, request.path) {
        case ("GET", "/"): return .text(200, StatusPage.html, contentType: "text/html; charset=utf-8")
        case ("GET", "/v1/status"): return .json(200, status())
        case ("GET", "/v1/accessories"):
            return .json(200, ["accessories": manager.accessories.map(ControlJSON.accessory)])
        case ("GET", "/v1/limits"): return .json(200, ControlJSON.limits(accessory.limits))
        case ("GET", "/metrics"):
            return .text(200, MetricsExposition.text(self), contentType: "text/plain; version=0.0.4; charset=utf-8")
        case ("GET", "/v1/snapshot.jpg"):
            let renderer = PreviewRenderer(accessory: accessory, monitor: monitor)
            guard request.query["view"] ?? "full" == "full" || request.query["view"] == "output" else {
                throw RequestError(400, "view must be full (annotated) or output (what the virtual camera shows)")
            }
            let picture = request.query["view"] == "output" ? renderer.outputJPEG() : renderer.jpeg()?.bytes
            guard let jpeg = picture else {
                return .error(503, "no frame processed yet; try again in a moment")
            }
            return HTTPResponse(status: 200, contentType: "image/jpeg", body: .bytes(jpeg))
        case ("GET", "/v1/preview.mjpeg"):
            return HTTPResponse(
                status: 200, contentType: "multipart/x-mixed-replace; boundary=\(PreviewStream.boundary)",
                body: .stream(PreviewStream(renderer: PreviewRenderer(accessory: accessory, monitor: monitor))))
        case ("GET", "/v1/frames.mjpeg"):
            let rate = request.query["fps"].map { Double($0) } ?? 15
            guard let rate, (1...30).contains(rate) else {
                throw RequestError(400, "fps must be a number from 1 to 30, e.g. /v1/frames.mjpeg?fps=15")
            }
            return HTTPResponse(
                status: 200, contentType: "multipart/x-mixed-replace; boundary=\(PreviewStream.boundary)",
                body: .stream(
                    PreviewStream.cleanFrames(
                        renderer: PreviewRenderer(accessory: accessory, monitor: monitor, quality: 90),
                        maximumRate: rate)))
        case ("GET", let path) where path.hasPrefix("/v1/events/"):
            return eventStream(String(path.dropFirst("/v1/events/".count)))
        case ("POST", "/v1/session"):
            return try openSession(request)
        default:
            // While a DockKit program holds the dock, it alone changes it.
            if let holder {
                throw RequestError(
                    409, "\(holder.description) holds the dock; \(request.path) is refused until it ends its session")
            }
            let fields = try body(request)
            switch request.path {
            case "/v1/orientation":
                return .json(202, try startOrientation(fields).answer)
            case "/v1/animate":
                return .json(202, try startAnimation(fields).answer)
            case "/v1/preset":
                return .json(202, try goToPreset(fields))
            default:
                return .json(200, try command(request.path, fields))
            }
        }
    }

    // MARK: Commands

    /// Switches system tracking on every accessory this dockd serves.
    func setSystemTracking(_ enabled: Bool) {
        manager.applySystemTracking(enabled)
        if !manager.accessories.contains(where: { $0.local === accessory as AnyObject }) {
            accessory.setSystemTrackingEnabled(enabled)
        }
    }

    /// A command by path with its fields (from an HTTP body or a session's line); the answer.
    func command(_ path: String, _ fields: JSONFields) throws -> [String: Any] {
        switch path {
        case "/v1/system-tracking":
            guard let enabled = try fields.bool("enabled") else {
                throw RequestError(400, "\(path) needs {\"enabled\": true|false}")
            }
            try fields.finish(help: "docs/control-api.md")
            setSystemTracking(enabled)
            return ["systemTracking": enabled]
        case "/v1/framing":
            guard let name = try fields.string("mode"), let mode = ControlJSON.framingModes[name] else {
                throw RequestError(400, "\(path) needs {\"mode\": \"automatic\"|\"center\"|\"left\"|\"right\"}")
            }
            try fields.finish(help: "docs/control-api.md")
            accessory.applyFramingMode(mode)
            return ["framingMode": name]
        case "/v1/region":
            let x = try fields.number("x", in: -1e9...1e9)
            let y = try fields.number("y", in: -1e9...1e9)
            let w = try fields.number("width", in: -1e9...1e9)
            let h = try fields.number("height", in: -1e9...1e9)
            try fields.finish(help: "docs/control-api.md")
            guard let x, let y, let w, let h else {
                throw RequestError(
                    400,
                    "\(path) needs {\"x\", \"y\", \"width\", \"height\"}, 0…1 with the origin at the upper left"
                )
            }
            do { try accessory.setRegion(CGRect(x: x, y: y, width: w, height: h)) } catch {
                throw RequestError(
                    422,
                    "the region must lie inside the frame (0…1, origin upper left) and be at least 0.05 wide and high")
            }
            return ["regionOfInterest": ControlJSON.rect(accessory.regionOfInterest)]
        case "/v1/select":
            return try select(fields, path: path)
        case "/v1/velocity":
            let v = try vector(fields, limit: 100)
            try fields.finish(help: "docs/control-api.md")
            try accessory.applyAngularVelocity(v)
            return ["velocity": ControlJSON.vector(v)]
        case "/v1/limits":
            return try setLimits(fields)
        default:
            throw RequestError(404, "no such resource \(path)")
        }
    }

    /// Starts the move `/v1/orientation` (or a session's `orientation`) asks for; its
    /// progress, and the answer the request gets.
    func startOrientation(_ fields: JSONFields) throws -> (progress: Progress, answer: [String: Any]) {
        let v = try vector(fields, limit: 100)
        let duration = try fields.number("duration", in: 0...60) ?? 1
        let relative = try fields.bool("relative") ?? false
        try fields.finish(help: "docs/control-api.md")
        let progress = try accessory.startOrientation(v, seconds: duration, relative: relative)
        return (progress, ["orientation": ControlJSON.vector(v), "duration": duration, "relative": relative])
    }

    /// Starts the animation `/v1/animate` (or a session's `animate`) asks for.
    func startAnimation(_ fields: JSONFields) throws -> (progress: Progress, answer: [String: Any]) {
        let motion = try animation(fields)
        return (try accessory.startAnimation(motion), ["animation": ControlJSON.animationName(motion)])
    }

    /// `/v1/preset`: home or privacy. System tracking goes off so the head stays there.
    func goToPreset(_ fields: JSONFields) throws -> [String: Any] {
        guard let name = try fields.string("name"), let preset = Preset(rawValue: name) else {
            throw RequestError(400, "/v1/preset needs {\"name\": \"home\"|\"privacy\"}")
        }
        try fields.finish(help: "docs/control-api.md")
        setSystemTracking(false)
        _ = try accessory.goToPreset(preset)
        return ["preset": name, "orientation": ControlJSON.vector(accessory.pose(of: preset)), "systemTracking": false]
    }

    private func animation(_ fields: JSONFields) throws -> DockAccessory.Animation {
        guard let name = try fields.string("motion"), let motion = ControlJSON.animations[name] else {
            throw RequestError(400, "/v1/animate needs {\"motion\": \"yes\"|\"no\"|\"wakeup\"|\"kapow\"}")
        }
        try fields.finish(help: "docs/control-api.md")
        return motion
    }

    /// `/v1/select`: lock onto subjects by id, or onto whoever is at a point.
    private func select(_ fields: JSONFields, path: String) throws -> [String: Any] {
        if let ids = try fields.array("ids") {
            try fields.finish(help: "docs/control-api.md")
            var uuids: [UUID] = []
            for id in ids {
                guard let text = id as? String, let uuid = UUID(uuidString: text) else {
                    throw RequestError(
                        400, "ids: \(id) is not a subject id; use the ids from /v1/status or the tracking events")
                }
                uuids.append(uuid)
            }
            try accessory.lockSubjects(uuids)
            return ["locked": uuids.map(\.uuidString)]
        }
        let x = try fields.number("x", in: -1e9...1e9)
        let y = try fields.number("y", in: -1e9...1e9)
        try fields.finish(help: "docs/control-api.md")
        guard let x, let y else {
            throw RequestError(400, "\(path) needs {\"x\", \"y\"} (0…1, origin lower left) or {\"ids\": [...]}")
        }
        let locked = try accessory.lockSubject(at: CGPoint(x: x, y: y))
        return ["locked": [locked.uuidString]]
    }

    /// `/v1/limits`: per-axis position range and top speed; axes not named keep theirs.
    private func setLimits(_ fields: JSONFields) throws -> [String: Any] {
        var limits = accessory.limits
        for axis in ["yaw", "pitch", "roll"] {
            guard let spec = try fields.object(axis) else { continue }
            let low = try spec.number("min", in: -100...100)
            let high = try spec.number("max", in: -100...100)
            let speed = try spec.number("maximumSpeed", in: 0...1000)
            try spec.finish(help: "docs/control-api.md")
            guard let low, let high, let speed else {
                throw RequestError(400, "\(axis) needs {\"min\", \"max\", \"maximumSpeed\"} (radians, rad/s)")
            }
            guard low < high else { throw RequestError(422, "\(axis): min must be below max") }
            let limit = try AxisLimit(positionRange: low..<high, maximumSpeed: speed)
            switch axis {
            case "yaw": limits.yaw = limit
            case "pitch": limits.pitch = limit
            default: limits.roll = limit
            }
        }
        try fields.finish(help: "docs/control-api.md")
        try accessory.setLimits(limits)
        return ControlJSON.limits(accessory.limits)
    }

    /// The request's body as a JSON object, read strictly.
    private func body(_ request: HTTPRequest) throws -> JSONFields {
        guard !request.body.isEmpty else { throw RequestError(400, "\(request.path) needs a JSON object in the body") }
        do { return try JSONFields.parse(Data(request.body)) } catch {
            throw RequestError(400, "malformed JSON: \(error.problem); send an object such as {\"mode\": \"center\"}")
        }
    }

    private func vector(_ fields: JSONFields, limit: Double) throws -> Vector3D {
        Vector3D(
            x: try fields.number("pitch", in: -limit...limit) ?? 0,
            y: try fields.number("yaw", in: -limit...limit) ?? 0,
            z: try fields.number("roll", in: -limit...limit) ?? 0)
    }

    /// What a DockKit error means for a request to `path`: the status and one line saying
    /// what to do.
    static func refusal(_ error: DockKitError, path: String) -> (status: Int, message: String) {
        switch error {
        case .notSupported:
            (
                409,
                "system tracking is on, so \(path) is refused; turn it off first (POST /v1/system-tracking {\"enabled\": false})"
            )
        case .notConnected: (503, "the motor device is not answering; check its cable and power")
        case .notSupportedByDevice: (422, "the device has no such axis; see GET /v1/limits")
        case .invalidParameter: (422, "a value is out of range or not finite; see docs/control-api.md")
        case .noSubjectFound: (422, "no tracked subject there; see the subjects in GET /v1/status")
        case .frameRateTooHigh:
            path == "the session's track"
                ? (429, "track calls came too fast: call 10 to 30 times a second")
                : (429, "at most two motion calls a second; wait half a second and retry")
        case .frameRateTooLow: (422, "track calls came too slowly: call 10 to 30 times a second")
        case .cameraTCCMissing: (403, "the camera cannot be opened (permissions)")
        @unknown default: (500, "\(error)")
        }
    }

    /// A refusal as JSON fields: the message, the status, and DockKit's error by name, so a
    /// client throws the same error it would in-process.
    static func refusalFields(_ error: DockKitError, path: String) -> [String: Any] {
        let (status, message) = refusal(error, path: path)
        return ["error": message, "status": status, "dockKitError": error.name]
    }

    // MARK: State

    func status() -> [String: Any] {
        let motion = accessory.currentMotion
        var out: [String: Any] = [
            "accessory": ControlJSON.accessory(accessory),
            "systemTracking": accessory.isSystemTrackingEnabled,
            "framingMode": ControlJSON.framingMode(accessory.framingMode),
            "regionOfInterest": ControlJSON.rect(accessory.regionOfInterest),
            "limits": ControlJSON.limits(accessory.limits),
            "motion": [
                "positions": ControlJSON.vector(motion.angularPositions),
                "velocities": ControlJSON.vector(motion.angularVelocities),
            ],
            "locked": accessory.lockedSubjects.map(\.uuidString),
            "subjects": (accessory.latestTrackingState?.trackedSubjects ?? []).map(ControlJSON.subject),
            "session": about,
        ]
        if let holder { out["client"] = holder.description }
        out["reportsBattery"] = accessory.motors.backend.capabilities.reportsBattery
        if let battery = accessory.battery.latest {
            out["battery"] = [
                "volts": battery.volts, "cells": battery.cells, "level": battery.level, "low": battery.isLow,
            ]
        }
        if let aim = accessory.framingTarget { out["framingTarget"] = ["x": aim.x, "y": aim.y] }
        if let error = accessory.centeringError {
            out["centeringErrorDeg"] = ["yaw": error.yaw * 180 / .pi, "pitch": error.pitch * 180 / .pi]
        }
        if let crop = monitor.crop {
            let rect = ImageCoordinates(width: 1, height: 1).pixels(crop)
            out["crop"] = ["x": rect.x, "y": rect.y, "width": rect.width, "height": rect.height]
        }
        let c = monitor.counters()
        out["figures"] = [
            "uptime": c.uptime, "frames": c.frames, "framesDropped": c.accounting.notProcessed,
            "framesProduced": c.accounting.produced,
            "fps": c.stages.first { $0.name == SessionMonitor.frameStage }?.perSecond ?? 0,
            "trackCalls": accessory.trackCallCount, "rateContractErrors": c.rateContractErrors,
        ]
        return out
    }

    // MARK: Streams

    private func eventStream(_ name: String) -> HTTPResponse {
        // An opening comment flushes the headers at once, so clients know they are subscribed.
        let stream = EventStream(first: [Array(": subscribed to \(name)\n\n".utf8)])
        /// Each value the broadcast yields becomes one event, until the client goes away.
        func follow<Value>(_ broadcast: Broadcast<Value>, _ encode: @escaping @Sendable (Value) -> [String: Any]) {
            let id = broadcast.subscribe { stream.push(ControlJSON.serverSentEvent(name, encode($0))) }
            stream.whenClosed { broadcast.unsubscribe(id) }
        }
        switch name {
        case "tracking":
            if let latest = accessory.latestTrackingState {
                stream.push(ControlJSON.serverSentEvent(name, ControlJSON.trackingState(latest)))
            }
            follow(accessory.trackingBroadcast, ControlJSON.trackingState)
        case "motion": follow(accessory.motionBroadcast, ControlJSON.motionState)
        case "accessory": follow(accessory.events, ControlJSON.event)
        case "battery":
            // The battery as it is now first, as a DockKit program's stream starts.
            if let latest = accessory.battery.latestState {
                stream.push(ControlJSON.serverSentEvent(name, ControlJSON.battery(latest)))
            }
            follow(accessory.batteries, ControlJSON.battery)
        case "state":
            // The manager sends the accessories docked now before any change.
            let id = manager.observeStateChanges {
                stream.push(ControlJSON.serverSentEvent(name, ControlJSON.stateChange($0)))
            }
            stream.whenClosed { [manager] in manager.stopObservingStateChanges(id) }
        default:
            return .error(404, "no event stream '\(name)'; streams: tracking, motion, accessory, battery, state")
        }
        streamClients.withLock { $0[name, default: 0] += 1 }
        stream.whenClosed { [streamClients] in streamClients.withLock { $0[name, default: 1] -= 1 } }
        stream.whenDropping { [streamDrops, noticeHandler, capacity = stream.capacity] first in
            streamDrops.withLock { $0[name, default: 0] += 1 }
            guard first, let say = noticeHandler.withLock({ $0 }) else { return }
            say(
                "a client of the \(name) event stream fell behind: its oldest events are dropped, the newest \(capacity) kept (opendock_events_dropped_total counts them)"
            )
        }
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .stream(stream))
    }
}
