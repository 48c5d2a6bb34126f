import ControlClient
import ControlServer
import DockCore
import DockEngine
import DockKit
import Foundation
import Pipeline

/// The clients a soak with every output on attaches to the control API, as users do for hours:
/// a browser on the annotated preview, a program on the clean frames, two event-stream
/// followers, a client that stops reading its stream (its queue must stay bounded and its drops
/// counted), and a Prometheus scraper. Each runs on its own thread, over the Unix socket.
final class SoakClients: @unchecked Sendable {
    struct Figures: Sendable {
        var previewParts = 0
        var frameParts = 0
        var trackingEvents = 0
        var motionEvents = 0
        var metricsScrapes = 0
        /// Events the service dropped for the client that stopped reading, as /metrics said last.
        var eventsDroppedInMetrics = 0
        /// What the API said on its own (a client that fell behind).
        var notices: [String] = []
        /// The first thing that went wrong for a client, if anything did.
        var errors: [String] = []
    }

    private let server: HTTPServer
    private let api: ControlAPI
    private let connection: ControlConnection
    private let manager = DockAccessoryManager()
    private let accessory: LocalDock
    private let stopped = Protected(false)
    private let figures = Protected(Figures())
    private let running = DispatchGroup()

    init(session: Pipeline, folder: String) throws(SessionError) {
        accessory = session.accessory
        api = ControlAPI(
            manager: manager, accessory: session.accessory, monitor: session.monitor,
            about: ["source": session.sourceSummary])
        let path = folder + "/control.sock"
        server = try HTTPServer(endpoint: .unix(path: path), handler: api.handle)
        connection = ControlConnection(endpoint: .unix(path: path))
        session.reportDevice(to: manager)
        manager.dock(session.accessory)
        let figures = figures
        api.whenNotice { line in figures.withLock { $0.notices.append(line) } }
    }

    /// Starts every client.
    func start() {
        followParts("/v1/preview.mjpeg", into: \.previewParts)
        followParts("/v1/frames.mjpeg?fps=15", into: \.frameParts)
        followEvents("/v1/events/tracking", into: \.trackingEvents)
        followEvents("/v1/events/motion", into: \.motionEvents)
        // Takes the first event, then reads nothing more until the soak ends.
        client("/v1/events/motion (stopped reading)") { (connection, keepGoing) throws(ControlClientError) in
            try connection.events("/v1/events/motion", keepGoing: keepGoing) { _, _ in
                while keepGoing() { Thread.sleep(forTimeInterval: 0.2) }
                return false
            }
        }
        client("/metrics") { (connection, keepGoing) throws(ControlClientError) in
            while keepGoing() {
                let reply = try connection.request("GET", "/metrics")
                guard reply.status == 200 else { throw ControlClientError("/metrics answered \(reply.status)") }
                let text = String(decoding: reply.body, as: UTF8.self)
                let dropped = Self.sum(of: "opendock_events_dropped_total", in: text)
                self.figures.withLock {
                    $0.metricsScrapes += 1
                    $0.eventsDroppedInMetrics = dropped
                }
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// A multipart JPEG stream's reader, counting whole parts.
    private func followParts(_ path: String, into count: WritableKeyPath<Figures, Int> & Sendable) {
        client(path) { (connection, keepGoing) throws(ControlClientError) in
            var parser = MultipartParser()
            try connection.follow(path, accept: "multipart/x-mixed-replace", keepGoing: keepGoing) { bytes in
                let parts = parser.feed(bytes).count
                self.figures.withLock { $0[keyPath: count] += parts }
                return keepGoing() && parser.broken == nil
            }
            if let broken = parser.broken { throw ControlClientError("\(path): \(broken)") }
        }
    }

    /// An event stream's follower, counting events.
    private func followEvents(_ path: String, into count: WritableKeyPath<Figures, Int> & Sendable) {
        client(path) { (connection, keepGoing) throws(ControlClientError) in
            try connection.events(path, keepGoing: keepGoing) { _, _ in
                self.figures.withLock { $0[keyPath: count] += 1 }
                return keepGoing()
            }
        }
    }

    /// Stops the clients, waits for them and closes the server.
    func finish() -> Figures {
        stopped.withLock { $0 = true }
        running.wait()
        server.stop()
        manager.undock(accessory)
        return figures.withLock { $0 }
    }

    /// Runs `body` on a thread of its own until the soak ends; what it throws is recorded.
    private func client(
        _ name: String,
        _ body: @escaping @Sendable (ControlConnection, @escaping () -> Bool) throws(ControlClientError) -> Void
    ) {
        let keepGoing: @Sendable () -> Bool = { [stopped] in !stopped.withLock { $0 } }
        running.enter()
        let thread = Thread { [self] in
            defer { running.leave() }
            do throws(ControlClientError) { try body(connection, keepGoing) } catch {
                if keepGoing() { figures.withLock { $0.errors.append("\(name): \(error.message)") } }
            }
        }
        thread.name = "opendock.soak-client"
        thread.start()
    }

    /// The sum of a metric's samples over its labels.
    static func sum(of metric: String, in text: String) -> Int {
        text.split(separator: "\n").filter { $0.hasPrefix(metric + "{") || $0.hasPrefix(metric + " ") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }
}
