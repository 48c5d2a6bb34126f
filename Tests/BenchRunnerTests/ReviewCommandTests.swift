import Capture
import ControlClient
import DockCore
import Foundation
import Imaging
import Pipeline
import SceneFiles
import Simulation
import TestSupport
import Testing

@testable import BenchRunner

/// `dockctl review` on a proposal `dockctl label` made from Megamind.avi: the page in a real
/// headless browser, the edits through its HTTP API, each in the scene file at once.
@Suite(.serialized, .tags(.process), .notInFastRuns) struct ReviewCommandTests {
    /// A proposal for Megamind.avi's first 96 frames, and `dockctl review` serving it on a free
    /// port; `body` gets the page's address and a client.
    func reviewing(_ body: (String, String, ControlConnection) throws -> Void) throws -> [String] {
        let directory = Fixtures.temporaryDirectory("review")
        let scene = directory + "/megamind.json"
        _ = try LabelCommand(arguments: [
            try Fixtures.mediaPath("opencv/Megamind.avi"), "--frames", "96", "--out", scene, "--models",
            Fixtures.repositoryRoot + "/models",
        ]).run { _ in }
        let review = try ReviewCommand(arguments: [scene, "--listen", "0"])
        let address = Protected<String?>(nil)
        let said = Protected<Result<[String], SessionError>?>(nil)
        let work = BlockingWork("test.review") {
            let result = Result { () throws(SessionError) in
                try review.run { line in
                    if let url = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }) {
                        address.withLock { $0 = String(url) }
                    }
                }
            }
            said.withLock { $0 = result }
        }
        let deadline = Date().addingTimeInterval(60)
        while address.withLock({ $0 }) == nil, said.withLock({ $0 }) == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let url = try #require(address.withLock { $0 }, "\(String(describing: said.withLock { $0 }))")
        let port = try #require(UInt16(String(url.split(separator: ":").last ?? "").filter { $0.isNumber }))
        let client = ControlConnection(endpoint: .tcp(host: "127.0.0.1", port: port))
        do { try body(url, scene, client) } catch {
            _ = try? client.request("POST", "/finish")
            work.wait(seconds: 30)
            throw error
        }
        _ = try client.request("POST", "/finish")
        #expect(work.wait(seconds: 30), "Finish ends the command")
        return try #require(said.withLock { $0 }).get()
    }

    func edit(_ client: ControlConnection, _ fields: [String: Any]) throws -> ControlReply {
        try client.request("POST", "/edit", json: fields)
    }

    @Test func theEditsReachTheSceneFileAndFinishEndsTheCommand() throws {
        let said = try reviewing { _, scene, client in
            let state = try #require(try client.request("GET", "/state").object)
            let people = try #require(state["people"] as? [[String: Any]])
            let boxes = try #require(state["boxes"] as? [[[Double]]])
            // Megamind runs at 24 fps for 270 frames (the proposal covers the first 96): a picture
            // every second frame, each with the boxes of its frame.
            #expect(state["step"] as? Int == 2 && state["frameCount"] as? Int == 270 && boxes.count == 135)
            #expect(people.count >= 2 && boxes[20].count >= 2, "\(people)")
            let picture = try client.request("GET", "/picture/20.jpg")
            let size = try picture.body.withUnsafeBytes { try JPEGDecoder().size(of: $0) }
            #expect(picture.status == 200 && size == PixelSize(width: 720, height: 528))
            #expect(try client.request("GET", "/picture/135.jpg").status == 404)

            // The tracker's person 1 taken for two at frame 40, then put back together.
            let split = try edit(client, ["op": "split", "person": 1, "frame": 40])
            let newcomer = try #require((split.object?["people"] as? [[String: Any]])?.last?["id"] as? Int)
            #expect(newcomer == people.count + 1)
            var file = try BenchScene.load(path: scene)
            guard case .video(_, let split1) = file.world else { throw SessionError("not a recording") }
            #expect(split1.people.count == people.count + 1)
            #expect(try edit(client, ["op": "merge", "person": newcomer, "into": 1]).status == 200)
            // Person 1 speaks over a second; their first second is hidden; it is checked.
            #expect(try edit(client, ["op": "speech", "person": 1, "from_s": 1.0, "to_s": 2.0]).status == 200)
            #expect(try edit(client, ["op": "hide", "person": 1, "first": 0, "last": 23]).status == 200)
            #expect(try edit(client, ["op": "checked", "value": true]).status == 200)
            file = try BenchScene.load(path: scene)
            guard case .video(_, let truth) = file.world else { throw SessionError("not a recording") }
            #expect(!file.truthIsProposed && truth.people.count == people.count)
            #expect(truth.speech.map(\.span) == [TimeSpan(1, 2)] && truth.speech.first?.id == 1)
            #expect(truth.groundTruth(sequence: 23).first { $0.id == 1 } == nil)
            #expect(truth.groundTruth(sequence: 24).first { $0.id == 1 }?.hidden == false)

            // Undo takes the last edit back: proposed again. A bad edit says what was wrong.
            #expect(try edit(client, ["op": "undo"]).object?["proposed"] as? Bool == true)
            #expect(try BenchScene.load(path: scene).truthIsProposed)
            #expect(
                try edit(client, ["op": "merge", "person": 1, "into": 1]).errorMessage
                    == "merge needs two different people")
            #expect(try edit(client, ["op": "paint"]).errorMessage?.hasPrefix("unknown op \"paint\"") == true)
            #expect(
                try edit(client, ["op": "split", "person": 1]).errorMessage == "split needs \"frame\": a whole number")
            // A second review on the same port is told to choose another.
            #expect {
                _ = try ReviewCommand(arguments: [
                    scene, "--listen", String(client.endpoint.description.split(separator: ":").last!),
                ]).run { _ in }
            } throws: { error in
                (error as? SessionError)?.message.hasSuffix("Address already in use; choose another --listen port")
                    == true
            }
        }
        #expect(said.count == 1 && said[0].hasSuffix("still proposed (not marked checked)"), "\(said)")
    }

    /// The page as a person sees it: the picture with the chosen person's box drawn over it in
    /// their colour, the people listed, the state of the truth; the same page after an edit.
    @Test func thePageDrawsThePictureTheBoxesAndThePeople() throws {
        _ = try reviewing { url, _, client in
            let dom = try HeadlessBrowser.settledDOM(url + "?at=20&person=1", milliseconds: 3000)
            #expect(dom.contains("<b>person 1</b>") && dom.contains("<b>person 2</b>"), "\(dom.suffix(3000))")
            #expect(dom.contains("<span id=\"badge\" class=\"proposed\">proposed: not checked</span>"))
            #expect(dom.contains("frame 40 of 270 · 1.67 s"))

            let shot = try HeadlessBrowser.screenshot(url + "?at=20&person=1", milliseconds: 3000, settled: true)
            // Person 1's colour (230, 25, 75) where the picture is (16…736 px across, from 94 down).
            var boxPixels = 0
            var colourful = 0
            for y in 94..<622 {
                for x in 16..<736 {
                    let i = y * shot.bytesPerRow + x * 3
                    let (b, g, r) = (Int(shot.pixels[i]), Int(shot.pixels[i + 1]), Int(shot.pixels[i + 2]))
                    if abs(r - 230) < 25 && g < 60 && abs(b - 75) < 30 { boxPixels += 1 }
                    if max(b, g, r) - min(b, g, r) > 40 { colourful += 1 }
                }
            }
            #expect(boxPixels > 500, "the box is drawn: \(boxPixels) pixels of its colour")
            #expect(colourful > 100_000, "the picture is drawn: \(colourful) colourful pixels")

            #expect(try edit(client, ["op": "checked", "value": true]).status == 200)
            let after = try HeadlessBrowser.settledDOM(url, milliseconds: 3000)
            #expect(after.contains("<span id=\"badge\" class=\"\">checked</span>"), "\(after.prefix(1500))")
        }
    }
}
