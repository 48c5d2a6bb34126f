import DockCore
import DockKit
import Foundation
import TestSupport
import Testing

@testable import ControlServer
@testable import Pipeline
@testable import Rigs

/// A client that stops reading an event stream costs a bounded queue: its oldest events are
/// dropped and counted in /metrics, and the API says so once.
@Suite(.tags(.unit)) struct EventStreamBacklogTests {
    @Test func aClientThatFallsBehindLosesItsOldestEventsCountedAndSaidOnce() throws {
        var c = SessionConfiguration()
        c.source = .demo
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.bodyDetector = .none
        let session = try Pipeline(simulating: c)
        let api = ControlAPI(
            manager: DockAccessoryManager(), accessory: session.accessory, monitor: session.monitor)
        let notices = Protected<[String]>([])
        api.whenNotice { line in notices.withLock { $0.append(line) } }

        let response = api.handle(HTTPRequest(method: "GET", path: "/v1/events/accessory"))
        guard case .stream(let stream) = response.body else {
            Issue.record("the event stream answered without a stream")
            return
        }
        // Nobody reads: 100 events after the opening comment, into a queue of 64.
        for zoom in 0..<100 { session.accessory.post(.cameraZoom(factor: Double(zoom))) }
        #expect(api.streamDrops.withLock { $0["accessory"] } == 37)
        #expect(notices.withLock { $0.count } == 1)
        #expect(notices.withLock { $0.first?.contains("accessory event stream fell behind") } == true)
        let metrics = MetricsExposition.text(api)
        #expect(metrics.contains("opendock_events_dropped_total{stream=\"accessory\"} 37"))

        // What the client reads when it comes back: the newest 64, oldest first, nothing older.
        guard case .bytes(let first) = stream.next(waiting: 0) else {
            Issue.record("nothing queued")
            return
        }
        #expect(String(decoding: first, as: UTF8.self).contains("\"factor\":36"))
        var remaining = 1
        while case .bytes = stream.next(waiting: 0) { remaining += 1 }
        #expect(remaining == 64)
        stream.close()
    }
}
