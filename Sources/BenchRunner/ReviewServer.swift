import ControlClient
import ControlServer
import DockCore
import Foundation
import Pipeline
import SceneFiles
import Simulation

/// `dockctl review`'s HTTP side: the page, the recording's pictures, the truth as it stands
/// (with every picture's boxes worked out here, so the page only draws), and the edits, each
/// written to the scene file before it is answered.
final class ReviewServer: Sendable {
    let pictures: ReviewPictures
    private let scene: Protected<ReviewedScene>
    private let finished = DispatchSemaphore(value: 0)

    init(scene: ReviewedScene, pictures: ReviewPictures) {
        self.scene = Protected(scene)
        self.pictures = pictures
    }

    var current: ReviewedScene { scene.withLock { $0 } }

    /// Blocks until the page's Finish button is pressed.
    func waitUntilFinished() { finished.wait() }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"):
            return .text(200, ReviewPage.html, contentType: "text/html; charset=utf-8")
        case ("GET", "/state"):
            return .json(200, state(current))
        case ("GET", let path) where path.hasPrefix("/picture/") && path.hasSuffix(".jpg"):
            let number = path.dropFirst("/picture/".count).dropLast(".jpg".count)
            guard let index = Int(number), pictures.jpegs.indices.contains(index) else {
                return .error(404, "no picture \(number): pictures go from 0 to \(pictures.jpegs.count - 1)")
            }
            return HTTPResponse(status: 200, contentType: "image/jpeg", body: .bytes(pictures.jpegs[index]))
        case ("POST", "/edit"):
            return edit(request.body)
        case ("POST", "/finish"):
            // The answer goes out before the server stops: stopping cuts connections short.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { [finished] in finished.signal() }
            return .json(200, ["finished": true])
        default:
            return .error(404, "no \(request.method) \(request.path) here: the review page is at /")
        }
    }

    /// Applies one edit the page sent: `{"op": "merge", "person": 2, "into": 1}` and the like
    /// (docs/scenes.md, "Reviewing a proposal"). The answer is the new state, or why not.
    func edit(_ body: [UInt8]) -> HTTPResponse {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let op = object["op"] as? String
        else {
            return .error(400, "send a JSON object with an \"op\": merge, split, hide, drop, speech, checked or undo")
        }
        func integer(_ key: String) throws(SessionError) -> Int {
            guard let value = object[key] as? Int else { throw SessionError("\(op) needs \"\(key)\": a whole number") }
            return value
        }
        func number(_ key: String) throws(SessionError) -> Double {
            guard let value = object[key] as? Double, value.isFinite else {
                throw SessionError("\(op) needs \"\(key)\": a number of seconds")
            }
            return value
        }
        do throws(SessionError) {
            let edit: TruthEdit?
            switch op {
            case "merge": edit = .merge(try integer("person"), into: try integer("into"))
            case "split": edit = .split(try integer("person"), atFrame: try integer("frame"))
            case "hide":
                let (first, last) = (try integer("first"), try integer("last"))
                guard first <= last else { throw SessionError("hide needs \"first\" ≤ \"last\"") }
                edit = .hide(try integer("person"), frames: first...last)
            case "drop": edit = .drop(try integer("person"))
            case "speech":
                edit = .speech(
                    try integer("person"), TimeSpan(try number("from_s"), try number("to_s")),
                    speaking: (object["speaking"] as? Bool) ?? true)
            case "checked", "undo": edit = nil
            default:
                throw SessionError(
                    "unknown op \"\(op)\": merge, split, hide, drop, speech, checked or undo")
            }
            let answer = try scene.withLock { (scene) throws(SessionError) -> ReviewedScene in
                if let edit {
                    try scene.apply(edit)
                } else if op == "checked" {
                    try scene.setChecked((object["value"] as? Bool) ?? true)
                } else if try !scene.undo() {
                    throw SessionError("nothing to undo")
                }
                return scene
            }
            return .json(200, state(answer))
        } catch {
            return .error(400, error.message)
        }
    }

    /// What the page shows: the recording, the people (with the frames they are seen in), the
    /// speech, and each picture's boxes as `[id, x, y, width, height]` in the recording's pixels.
    func state(_ scene: ReviewedScene) -> [String: Any] {
        let truth = scene.truth
        let boxes = pictures.jpegs.indices.map { index -> [[Double]] in
            truth.groundTruth(sequence: UInt64(pictures.frame(ofPicture: index))).filter { !$0.hidden }.map {
                [Double($0.id), $0.face.x, $0.face.y, $0.face.width, $0.face.height].map { ($0 * 10).rounded() / 10 }
            }
        }
        var state: [String: Any] = [
            "scene": (scene.path as NSString).lastPathComponent,
            "proposed": scene.proposed, "canUndo": scene.canUndo,
            "frameRate": pictures.frameRate, "frameCount": pictures.frameCount, "step": pictures.step,
            "width": pictures.size.width, "height": pictures.size.height, "pictures": pictures.jpegs.count,
            "people": truth.people.map { person -> [String: Any] in
                let runs = person.visibleRuns
                return [
                    "id": person.id, "runs": runs.map { [$0.lowerBound, $0.upperBound] },
                    "seen": runs.reduce(0) { $0 + $1.count },
                ]
            },
            "speech": truth.speech.map {
                ["id": $0.id, "from_s": $0.span.start, "to_s": $0.span.end] as [String: Any]
            },
            "boxes": boxes,
        ]
        if let primary = scene.primary { state["primary"] = primary }
        return state
    }
}
