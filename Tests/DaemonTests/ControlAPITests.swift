import Control
import DockCore
import DockKit
import Foundation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline
@testable import Rigs

/// The demo running in real time with the control API on a Unix socket (and TCP with a token),
/// driven with real HTTP requests through dockctl's client.
final class ServedDemo: @unchecked Sendable {
    let session: Pipeline
    let api: ControlAPI
    let server: HTTPServer
    let tcp: HTTPServer
    let client: ControlConnection
    let stop = StopFlag()
    let manager = DockAccessoryManager()
    private let finished = Protected(false)
    static let token = "s3cret-token"

    /// `digitalFraming`: a fixed camera whose virtual camera shows a crop following the person.
    init(digitalFraming: Bool = false) throws {
        var c = SessionConfiguration()
        if digitalFraming {
            c.gimbal = .dryRun
            c.digitalFraming = CropFollower.Settings()
        }
        c.source = .demo
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.bodyDetector = .none
        c.scene.loops = true
        c.realTime = true
        c.keepFrameRecords = false
        session = try Pipeline(simulating: c)
        session.reportDevice(to: manager)
        api = ControlAPI(
            manager: manager, accessory: session.accessory, monitor: session.monitor,
            about: ["source": session.sourceSummary], token: Self.token)
        let path = Fixtures.temporaryDirectory("control") + "/dockd.sock"
        server = try HTTPServer(endpoint: .unix(path: path), handler: api.handle)
        tcp = try HTTPServer(endpoint: .tcp(host: "127.0.0.1", port: 0), handler: api.handle)
        client = ControlConnection(endpoint: .unix(path: path))
        manager.dock(session.accessory)
        nonisolated(unsafe) let running = session  // owned by the thread from here on
        let thread = Thread { [stop, finished] in
            _ = try? running.run(stop: stop)
            finished.withLock { $0 = true }
        }
        thread.start()
        // Until the pipeline tracks someone.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, session.accessory.latestTrackingState?.trackedSubjects.isEmpty ?? true {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    func shutDown() {
        stop.set()
        while !finished.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
        server.stop()
        tcp.stop()
    }

    func post(_ path: String, _ body: [String: Any]) throws -> ControlReply {
        try client.request("POST", path, json: body)
    }
    func get(_ path: String) throws -> ControlReply { try client.request("GET", path) }
    var frames: Int { session.monitor.counters().frames }
}

@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct ControlAPITests {
    @Test func everyVerbOverTheUnixSocket() throws {
        let demo = try ServedDemo()
        defer { demo.shutDown() }

        let status = try #require(try demo.get("/v1/status").object)
        #expect(status["systemTracking"] as? Bool == true)
        #expect(status["framingMode"] as? String == "automatic")
        let subjects = try #require(status["subjects"] as? [[String: Any]])
        #expect(!subjects.isEmpty)
        #expect((try demo.get("/v1/accessories").object?["accessories"] as? [Any])?.count == 1)

        // Framing and region of interest.
        #expect(try demo.post("/v1/framing", ["mode": "left"]).status == 200)
        #expect(demo.session.accessory.framingMode == .left)
        #expect(try demo.post("/v1/framing", ["mode": "sideways"]).status == 400)
        #expect(try demo.post("/v1/region", ["x": 0.25, "y": 0, "width": 0.5, "height": 1]).status == 200)
        #expect(demo.session.accessory.regionOfInterest == CGRect(x: 0.25, y: 0, width: 0.5, height: 1))
        let outside = try demo.post("/v1/region", ["x": 0.8, "y": 0, "width": 0.5, "height": 1])
        #expect(outside.status == 422 && outside.errorMessage?.contains("inside the frame") == true)
        #expect(try demo.post("/v1/framing", ["mode": "automatic"]).status == 200)

        // Selection at a point (the subject's centre) and by id; an unknown id is refused.
        let person = try #require(subjects.first)
        let id = try #require(person["id"] as? String)
        let rect = try #require(person["rect"] as? [String: Double])
        let atPoint = try demo.post(
            "/v1/select", ["x": rect["x"]! + rect["width"]! / 2, "y": rect["y"]! + rect["height"]! / 2])
        #expect(atPoint.status == 200 && (atPoint.object?["locked"] as? [String]) == [id])
        #expect(demo.session.accessory.lockedSubjects == [UUID(uuidString: id)!])
        #expect(try demo.post("/v1/select", ["x": 0.01, "y": 0.99]).status == 422)
        #expect(try demo.post("/v1/select", ["ids": [UUID().uuidString]]).status == 422)
        #expect(try demo.post("/v1/select", ["ids": ["not-a-uuid"]]).status == 400)
        #expect(try demo.post("/v1/select", ["ids": []]).status == 200)
        #expect(demo.session.accessory.lockedSubjects.isEmpty)

        // Motors: refused while system tracking is on, then a held velocity turns the head.
        let refused = try demo.post("/v1/velocity", ["yaw": 0.3])
        #expect(refused.status == 409 && refused.errorMessage?.contains("system-tracking") == true)
        #expect(try demo.post("/v1/system-tracking", ["enabled": false]).status == 200)
        #expect(!demo.session.accessory.isSystemTrackingEnabled)
        let yaw0 = demo.session.accessory.currentMotion.angularPositions.y
        #expect(try demo.post("/v1/velocity", ["yaw": 0.3]).status == 200)
        Thread.sleep(forTimeInterval: 1.0)
        let yaw1 = demo.session.accessory.currentMotion.angularPositions.y
        #expect(yaw1 - yaw0 > 0.2, "a held 0.3 rad/s turned \(yaw1 - yaw0) rad in 1 s")
        #expect(try demo.post("/v1/velocity", ["yaw": 0]).status == 200)
        #expect(try demo.post("/v1/velocity", ["yaw": "fast"]).status == 400)

        // An orientation move arrives.
        #expect(try demo.post("/v1/orientation", ["yaw": -0.2, "pitch": 0.05, "duration": 0.5]).status == 202)
        Thread.sleep(forTimeInterval: 1.2)
        let pose = demo.session.accessory.currentMotion.angularPositions
        #expect(abs(pose.y + 0.2) < 0.02 && abs(pose.x - 0.05) < 0.02, "pose \(pose)")

        // Presets: home (where the head started), then privacy: turned away and down.
        let home = try demo.post("/v1/preset", ["name": "home"])
        #expect(home.status == 202 && (home.object?["preset"] as? String) == "home")
        Thread.sleep(forTimeInterval: 1.0)
        let atHome = demo.session.accessory.currentMotion.angularPositions
        #expect(abs(atHome.y) < 0.02 && abs(atHome.x) < 0.02, "home pose \(atHome)")
        let privacy = try demo.post("/v1/preset", ["name": "privacy"])
        #expect(privacy.status == 202 && (privacy.object?["systemTracking"] as? Bool) == false)
        Thread.sleep(forTimeInterval: 1.5)
        let away = demo.session.accessory.currentMotion.angularPositions
        #expect(away.y > 0.1 && away.x > 0.02, "turning away and down: \(away)")
        #expect(!demo.session.accessory.isSystemTrackingEnabled)
        #expect(try demo.post("/v1/preset", ["name": "elsewhere"]).status == 400)
        Thread.sleep(forTimeInterval: 1.0)

        // Limits: read, narrowed, refused for an axis the gimbal lacks or an empty range.
        #expect(try demo.get("/v1/limits").object?["yaw"] is [String: Any])
        let narrowed = try demo.post("/v1/limits", ["yaw": ["min": -0.5, "max": 0.5, "maximumSpeed": 1]])
        #expect(narrowed.status == 200 && (narrowed.object?["yaw"] as? [String: Double])?["max"] == 0.5)
        #expect(try demo.post("/v1/limits", ["roll": ["min": -0.1, "max": 0.1, "maximumSpeed": 1]]).status == 422)
        #expect(try demo.post("/v1/limits", ["yaw": ["min": 0.5, "max": -0.5, "maximumSpeed": 1]]).status == 422)

        // Animations: two a second, the third refused.
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try demo.post("/v1/animate", ["motion": "yes"]).status == 202)
        #expect(try demo.post("/v1/animate", ["motion": "no"]).status == 202)
        let third = try demo.post("/v1/animate", ["motion": "kapow"])
        #expect(third.status == 429 && third.errorMessage?.contains("two motion calls a second") == true)
        #expect(try demo.post("/v1/animate", ["motion": "dance"]).status == 400)
        #expect(try demo.post("/v1/system-tracking", ["enabled": true]).status == 200)
        #expect(demo.session.accessory.isSystemTrackingEnabled)
    }

    @Test func badRequestsAreAnsweredAndTheServiceGoesOn() throws {
        let demo = try ServedDemo()
        defer { demo.shutDown() }
        let before = demo.frames
        let malformed = try demo.client.request("POST", "/v1/framing", body: Array("{\"mode\": ".utf8))
        #expect(malformed.status == 400 && malformed.errorMessage?.hasPrefix("malformed JSON") == true)
        let notObject = try demo.client.request("POST", "/v1/framing", body: Array("[1, 2]".utf8))
        #expect(notObject.status == 400)
        let unknownKey = try demo.post("/v1/framing", ["mode": "left", "zoom": 2])
        #expect(unknownKey.status == 400 && unknownKey.errorMessage?.contains("zoom") == true)
        let empty = try demo.client.request("POST", "/v1/framing", body: [])
        #expect(empty.status == 400 && empty.errorMessage?.contains("JSON object") == true)
        let unknown = try demo.get("/v1/teleport")
        #expect(unknown.status == 404 && unknown.errorMessage?.contains("no such resource") == true)
        #expect(try demo.get("/v1/events/weather").status == 404)
        let wrongMethod = try demo.client.request("DELETE", "/v1/status", body: [])
        #expect(wrongMethod.status == 405 && wrongMethod.errorMessage?.contains("use GET") == true)
        let big = try demo.client.request("POST", "/v1/framing", body: [UInt8](repeating: 0x20, count: 200_000))
        #expect(big.status == 413 && big.errorMessage?.contains("limit") == true)
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(try demo.client.request("POST", "/v1/region", body: Array(deep.utf8)).status == 400)

        // TCP: the token is required, and accepted as a bearer header or in the query.
        let tcp = ControlConnection(endpoint: demo.tcp.endpoint)
        let missing = try tcp.request("GET", "/v1/status")
        #expect(missing.status == 401 && missing.errorMessage?.contains("token is required") == true)
        #expect(
            try ControlConnection(endpoint: demo.tcp.endpoint, token: "guess-guess").request("GET", "/v1/status").status
                == 401)
        #expect(
            try ControlConnection(endpoint: demo.tcp.endpoint, token: ServedDemo.token).request("GET", "/v1/status")
                .status == 200)
        #expect(try tcp.request("GET", "/v1/status?token=\(ServedDemo.token)").status == 200)
        // The Unix socket's file mode is its access control: no token there.
        #expect(try demo.get("/v1/status").status == 200)

        // Still tracking (frames keep coming; a loaded machine drops late ones, as a camera would).
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && demo.frames <= before + 3 { Thread.sleep(forTimeInterval: 0.1) }
        #expect(demo.frames > before + 3)
        #expect(demo.session.monitor.counters().rateContractErrors == 0)
    }

    @Test func streamsMetricsAndPreview() throws {
        let demo = try ServedDemo()
        defer { demo.shutDown() }
        let accessory = demo.session.accessory

        func firstEvents(_ stream: String, count: Int, after: (@Sendable () -> Void)? = nil) throws -> [[String: Any]] {
            var events: [[String: Any]] = []
            if let after {
                // Once this client is subscribed.
                let clients = demo.api.streamClients
                BlockingWork {
                    let deadline = Date().addingTimeInterval(10)
                    while Date() < deadline, clients.withLock({ $0[stream] ?? 0 }) == 0 {
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                    after()
                }
            }
            try demo.client.events("/v1/events/\(stream)") { name, data in
                #expect(name == stream)
                events.append((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:])
                return events.count < count
            }
            return events
        }
        let tracking = try firstEvents("tracking", count: 3)
        #expect(tracking.count == 3 && tracking.contains { ($0["subjects"] as? [Any])?.isEmpty == false })
        let motion = try firstEvents("motion", count: 5)
        #expect(motion.count == 5 && motion.allSatisfy { $0["positions"] is [String: Any] })
        let state = try firstEvents("state", count: 1)
        #expect(state.first?["state"] as? String == "docked")
        let buttons = try firstEvents("accessory", count: 2) {
            accessory.post(.button(id: 1, pressed: true))
            accessory.post(.cameraZoom(factor: -0.5))
        }
        #expect(buttons.first?["event"] as? String == "button" && buttons.first?["pressed"] as? Bool == true)
        #expect(buttons.last?["factor"] as? Double == -0.5)
        let battery = try firstEvents("battery", count: 1) {
            accessory.report(
                DockAccessory.BatteryState(
                    name: "grip", batteryLevel: 0.15, chargeState: .notCharging, lowBattery: true))
        }
        #expect(battery.first?["name"] as? String == "grip" && battery.first?["lowBattery"] as? Bool == true)
        // A client that went away is unsubscribed (the next event finds the connection gone).
        let gone = Date().addingTimeInterval(10)
        while Date() < gone && accessory.events.hasSubscribers {
            accessory.post(.cameraShutter)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(!accessory.events.hasSubscribers)
        #expect(demo.api.streamClients.withLock { $0["accessory"] } == 0)

        let metrics = try demo.get("/metrics")
        #expect(metrics.status == 200)
        for name in [
            "opendock_frames_total", "opendock_stage_fps{stage=\"frame\"}",
            "opendock_stage_latency_milliseconds{stage=\"frame\",quantile=\"0.99\"}",
            "opendock_track_calls_total", "opendock_rate_contract_violations_total 0",
            // A sample only while someone is framed (a loaded machine may lose the person for a moment).
            "# TYPE opendock_centering_error_degrees gauge",
            "opendock_motor_commands_total", "opendock_motor_link_errors_total{kind=\"write\"} 0",
            "opendock_frames_dropped_total",
            "opendock_source_frames_total{outcome=\"processed\"}",
            "opendock_source_frames_total{outcome=\"lost_in_driver\"} 0",
            "opendock_stage_latency_milliseconds{stage=\"capture→command\",quantile=\"0.5\"}",
            "opendock_motor_command_latency_seconds{source=\"device\"}",
            "opendock_motor_command_latency_seconds{source=\"in_use\"}",
        ] {
            #expect(metrics.text.contains(name), "missing \(name)")
        }
        let fps = metrics.text.split(separator: "\n").first { $0.hasPrefix("opendock_track_calls_per_second ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
        // A call per result, so the rate is the pipeline's (30 on a quiet machine, less under a
        // sanitizer); whatever it is, it stays inside DockKit's 10–30 Hz with its tolerance.
        #expect(fps.map { (10 / 1.1...30 * 1.1).contains($0) } == true, "track-call rate \(String(describing: fps))")

        let snapshot = try demo.get("/v1/snapshot.jpg")
        #expect(snapshot.status == 200 && snapshot.body.starts(with: [0xFF, 0xD8]) && snapshot.body.count > 10_000)

        // The MJPEG preview: parts with a boundary, each a whole JPEG.
        var parts = 0
        var buffer: [UInt8] = []
        let fd = try demo.client.connect(timeout: 5)
        defer { fd.close() }
        let request = "GET /v1/preview.mjpeg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        _ = try fd.send(Array(request.utf8)[...])
        var reader = HTTPResponseReader()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(10)
        while parts < 3 && Date() < deadline {
            let n = try fd.receive(into: &chunk)
            guard n > 0 else { break }
            buffer += try reader.feed(chunk[..<n])
            parts =
                String(decoding: buffer, as: UTF8.self).components(separatedBy: "--\(PreviewStream.boundary)").count - 1
        }
        #expect(reader.headers["content-type"]?.hasPrefix("multipart/x-mixed-replace") == true)
        #expect(parts >= 3)
        #expect(buffer.count > 30_000)
    }
}
