import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline

/// The status page in a real headless browser (Debian's chromium-headless-shell, installed by
/// Scripts/setup): it loads over TCP with the token, runs its script against the control API
/// and shows the state the service is in.
@Suite(.serialized, .tags(.process), .notInFastRuns) struct StatusPageTests {
    static let browser = HeadlessBrowser.path

    /// The page's DOM after the browser ran it for `milliseconds` of real time. (Virtual time
    /// never runs out here: the page's event stream and preview keep the network busy.)
    func renderedPage(_ url: String, milliseconds: Int = 4000) throws -> String {
        try HeadlessBrowser.run(url, milliseconds: milliseconds, output: ["--dump-dom"])
    }

    /// The page as the browser drew it after `milliseconds`, 1280×900.
    func screenshot(_ url: String, milliseconds: Int = 6000) throws -> Frame {
        try HeadlessBrowser.screenshot(url, milliseconds: milliseconds)
    }

    @Test func theBrowserShowsTheTrackedSubjectsAndTheFramingMode() throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.browser), "Scripts/setup installs chromium-headless-shell"
        )
        let demo = try ServedDemo()
        defer { demo.shutDown() }
        #expect(try demo.post("/v1/framing", ["mode": "left"]).status == 200)
        let subject = try #require(
            demo.session.accessory.latestTrackingState?.trackedSubjects.first?.identifier.uuidString)
        guard case .tcp(_, let port) = demo.tcp.endpoint else {
            Issue.record("no TCP endpoint")
            return
        }

        let page = try renderedPage("http://127.0.0.1:\(port)/?token=\(ServedDemo.token)")
        #expect(page.contains("<span id=\"accessory\">simulated gimbal</span>"), "\(page.prefix(2000))")
        #expect(page.contains("system tracking on, framing left, 1 subject"))
        // The subjects table: one row for the person, with saliency, speaking and looking values.
        #expect(page.contains("class=\"subject\" data-id=\"\(subject)\""))
        #expect(page.contains("<td>\(subject.prefix(8))</td><td>person</td><td>1</td>"))
        #expect(page.contains("connected: generated scene"))
        // The pictures are asked for with the token.
        #expect(page.contains("src=\"/v1/snapshot.jpg?view=full&amp;n="))
        #expect(page.contains("src=\"/v1/snapshot.jpg?view=output&amp;n="))
        #expect(page.contains("token=\(ServedDemo.token)\""))

        // Without the token the page loads (it is only HTML) but its requests are refused.
        let refused = try renderedPage("http://127.0.0.1:\(port)/", milliseconds: 2000)
        #expect(refused.contains("not connected: a token is required"))
    }

    /// The pictures really show: the browser's own rendering has the scene's colours in it (the
    /// page itself is grey on black) and the crop digital framing shows, drawn on the camera's
    /// picture in magenta; a page whose requests are refused has neither.
    @Test func theBrowserDrawsTheCameraPictureAndTheCrop() throws {
        let demo = try ServedDemo(digitalFraming: true)
        defer { demo.shutDown() }
        guard case .tcp(_, let port) = demo.tcp.endpoint else {
            Issue.record("no TCP endpoint")
            return
        }
        func colours(_ shot: Frame) -> (colourful: Double, magenta: Int) {
            var colourful = 0
            var magenta = 0
            for i in stride(from: 0, to: shot.pixels.count, by: 3) {
                let (b, g, r) = (Int(shot.pixels[i]), Int(shot.pixels[i + 1]), Int(shot.pixels[i + 2]))
                if max(b, g, r) - min(b, g, r) > 40 { colourful += 1 }
                if abs(r - 230) < 30 && abs(g - 40) < 40 && abs(b - 220) < 30 { magenta += 1 }
            }
            return (Double(colourful) / Double(shot.width * shot.height), magenta)
        }
        let shown = colours(try screenshot("http://127.0.0.1:\(port)/?token=\(ServedDemo.token)"))
        #expect(shown.colourful > 0.02, "\(shown)")
        #expect(shown.magenta > 200, "\(shown)")
        let refused = colours(try screenshot("http://127.0.0.1:\(port)/", milliseconds: 3000))
        #expect(refused.colourful < 0.005 && refused.magenta < 20, "\(refused)")
    }
}
