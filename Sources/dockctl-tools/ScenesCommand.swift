import BenchRunner
import Foundation
import Pipeline
import SceneFiles

/// `dockctl scenes`: writes the generated suite, or checks scene files without running them.
public enum ScenesCommand {
    public static let help = """
        dockctl scenes — the benchmark's scene files.

        Usage: dockctl scenes write DIR         write the generated suite (one JSON file per situation)
               dockctl scenes check FILE|DIR…   read and check scene files: each problem names the key's path

        The format is documented in docs/scenes.md.
        """

    /// Returns the lines to print.
    public static func run(arguments: [String]) throws(SessionError) -> [String] {
        guard let verb = arguments.first else {
            throw SessionError("scenes needs 'write DIR' or 'check FILE…' (see dockctl scenes --help)")
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "write":
            guard rest.count == 1 else { throw SessionError("scenes write needs exactly one directory") }
            return try SceneSuite.write(to: rest[0]).map { "wrote \($0)" }
        case "check":
            guard !rest.isEmpty else { throw SessionError("scenes check needs scene files or directories") }
            return try BenchCommand.expand(rest).map { (file) throws(SessionError) -> String in
                let scene = try BenchScene.load(path: file)
                let kind: String =
                    switch scene.world {
                    case .generated(let g):
                        "generated, \(g.people.count) \(g.people.count == 1 ? "person" : "people"), \(g.resolvedDuration) s"
                    case .video(let path, let truth):
                        "recording \((path as NSString).lastPathComponent), \(truth.people.count) labelled"
                    }
                return "\(file): ok (\(scene.name): \(kind))"
            }
        default:
            throw SessionError("scenes: unknown verb '\(verb)' (write or check)")
        }
    }
}
