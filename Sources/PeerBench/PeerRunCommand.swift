import Foundation
import Imaging
import Pipeline

/// `dockctl peer-run VIDEO --model PATH`: OpenDock's half of the Python peer comparison, run by
/// `dockctl bench --peer` in its own process so that its memory figure is its own.
public enum PeerRunCommand {
    public static let help = """
        dockctl peer-run — decode a recording and find the faces in every frame; print JSON figures.

        Usage: dockctl peer-run VIDEO --model PATH [--detect-width PX] [--threads N]

        The faces Scripts/peer/yunet_peer.py finds, found the way dockd finds them (DCT-scaled decode,
        whole scans a few times a second, looks around tracked faces in between); dockctl bench
        --peer runs both alternately.
        """

    public static func run(arguments: [String]) throws(SessionError) -> String {
        var rest = arguments[...]
        var video: String?
        var model: String?
        var width = 320
        while let argument = rest.popFirst() {
            switch argument {
            case "--model": model = rest.popFirst()
            case "--detect-width":
                guard let text = rest.popFirst(), let n = Int(text), (16...4096).contains(n) else {
                    throw SessionError("--detect-width expects pixels from 16 to 4096")
                }
                width = n
            case "--threads":
                guard let text = rest.popFirst(), let n = Int(text), (1...64).contains(n) else {
                    throw SessionError("--threads expects a whole number from 1 to 64")
                }
                Imaging.setThreadCount(n)
            default:
                guard !argument.hasPrefix("-"), video == nil else {
                    throw SessionError("peer-run: unexpected '\(argument)' (see --help)")
                }
                video = argument
            }
        }
        guard let video, let model else { throw SessionError("peer-run needs VIDEO and --model PATH") }
        return try PeerRunResult.runOurs(video: video, modelPath: model, detectWidth: width).jsonText
    }
}
