import ControlClient
import ControlServer
import DockCore
import Foundation
import Pipeline
import SceneFiles

/// `dockctl review SCENE`: a page in the browser to check and fix a recording's proposed truth
/// (`dockctl label`'s): merge and split people, hide false boxes, drop people who are no one,
/// fix who speaks when, then mark it checked. Each edit is written to the scene at once.
public struct ReviewCommand: Sendable {
    public var scene: String
    public var listen = ControlEndpoint.tcp(host: "127.0.0.1", port: 8090)

    public static let help = """
        dockctl review — check and fix a recording's proposed truth in the browser.

        Usage: dockctl review SCENE.json [--listen [HOST:]PORT]

        Serves a page (default http://127.0.0.1:8090/) showing the recording picture by picture
        with the scene's face boxes, and a timeline of who is seen and who speaks. Merge two
        people the tracker took for two, split one it took for one, hide false boxes, drop a
        person who is no one, mark who speaks over a selection, then mark the truth checked
        (docs/scenes.md, "Reviewing a proposal"). Each edit is checked and saved to SCENE.json
        at once; Undo takes the last back. Finish on the page ends the command. The page has no
        password: anyone who reaches HOST:PORT can edit the scene, so keep it on loopback unless
        the network is yours.
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        var scenes: [String] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--listen":
                guard let text = rest.popFirst() else { throw UsageError("--listen needs [HOST:]PORT") }
                guard let endpoint = ControlEndpoint.parseTCP(text) else {
                    throw UsageError("--listen expects [HOST:]PORT, e.g. 8090 or 0.0.0.0:8090, got '\(text)'")
                }
                listen = endpoint
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError("unknown review option '\(argument)' (see dockctl review --help)")
                }
                scenes.append(argument)
            }
        }
        guard scenes.count == 1 else {
            throw UsageError("dockctl review takes one scene file (see dockctl review --help)")
        }
        scene = scenes[0]
    }

    /// Serves the page until Finish is pressed on it; `progress` is told the page's address.
    /// Returns the lines to print: what the scene holds now.
    public func run(progress: (String) -> Void) throws(SessionError) -> [String] {
        let reviewed = try ReviewedScene(path: scene)
        let pictures = try ReviewPictures(video: reviewed.video, progress: progress)
        let review = ReviewServer(scene: reviewed, pictures: pictures)
        let server = try HTTPServer(endpoint: listen, maximumBodySize: 4096, option: "--listen") { review.handle($0) }
        defer { server.stop() }
        if !listen.isLoopback { progress("warning: anyone who reaches \(server.endpoint) can edit \(scene)") }
        progress(
            "review \(scene) at http://\(server.endpoint)/ (each edit is saved at once; press Finish on the page when done)"
        )
        review.waitUntilFinished()
        let done = review.current
        return [
            "\(scene): \(done.truth.people.count) people, \(done.truth.speech.count) turns of speech, "
                + (done.proposed ? "still proposed (not marked checked)" : "checked")
        ]
    }
}
