import Capture
import DockCore
import Foundation
import Options
import Pipeline
import Rigs

/// `dockctl label VIDEO`: proposes a scene file from a recording with no labels, so that it can
/// be benchmarked at once. The pipeline runs over every frame at full resolution with a fixed
/// camera (the slowest and surest settings), its tracks become people (the tracker's identities,
/// a keyframe every `--every` seconds, gaps hidden), and where there is sound, whoever the
/// microphones and lips say speaks becomes speech. The truth is marked proposed: check it before
/// trusting the figures (docs/scenes.md, "A recording of your own").
public struct LabelCommand {
    public var video: String
    public var audio: String?
    public var output: String?
    public var fieldOfView = 90.0
    /// Seconds between a person's keyframes.
    public var every = 0.2
    public var maximumFrames: Int?
    var passThrough: [String] = []

    public static let help = """
        dockctl label — a scene file proposed from a recording, ready for dockctl bench.

        Usage: dockctl label VIDEO [--audio WAV] [--out SCENE.json] [--hfov DEG] [--every SECONDS]
                             [--frames N] [--models DIR]

        Runs the detectors and tracker over every frame of VIDEO at full size, and writes a scene
        (docs/scenes.md) whose truth is the faces they found, person by person, a keyframe every
        --every seconds (default 0.2), with who speaks when from --audio (a WAV recorded with the
        video; stereo gives directions). The truth is marked "proposed": the benchmark's report says
        so until someone has checked it. --hfov is the recording's field of view (default 90).
        --out defaults to VIDEO's name with .scene.json, beside it.
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        var videos: [String] = []
        while let argument = rest.popFirst() {
            func value() throws(UsageError) -> String {
                guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                return value
            }
            switch argument {
            case "--audio": audio = try value()
            case "--out": output = try value()
            case "--hfov": fieldOfView = try Self.number(try value(), argument, in: 20...170)
            case "--every": every = try Self.number(try value(), argument, in: 0.02...10)
            case "--frames":
                guard let n = Int(try value()), n > 0 else {
                    throw UsageError("--frames expects a whole number above 0")
                }
                maximumFrames = n
            case "--models": passThrough += [argument, try value()]
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError("unknown label option '\(argument)' (see dockctl label --help)")
                }
                videos.append(argument)
            }
        }
        guard videos.count == 1 else {
            throw UsageError("dockctl label takes one recording (see dockctl label --help)")
        }
        video = videos[0]
    }

    static func number(_ text: String, _ option: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("\(option) expects a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Runs the pipeline over the recording and writes the scene; returns the lines to print.
    public func run(progress: (String) -> Void) throws(SessionError) -> [String] {
        let probe: VideoFileSource
        do { probe = try VideoFileSource(path: video) } catch {
            throw SessionError("cannot open \(video): \(error.message)")
        }
        var arguments = ["--source", video, "--gimbal", "none", "--detect-width", "\(probe.size.width)", "--quiet"]
        arguments += ["--hfov", "\(fieldOfView)"] + passThrough + (audio.map { ["--audio", $0] } ?? ["--no-audio"])
        var configuration: SessionConfiguration
        do { configuration = try DockdOptions.parse(arguments).configuration } catch {
            throw SessionError(error.message)
        }
        configuration.realTime = false
        configuration.keepFrameRecords = true
        configuration.maximumFrames = maximumFrames
        progress("finding the people in \(video) (\(probe.size), every frame)…")
        let summary = try Pipeline(simulating: configuration).run()
        let proposal = LabelProposal(
            frames: summary.subjectsByFrame, frameRate: probe.nominalFrameRate, size: probe.size, every: every)
        let path = output ?? ((video as NSString).deletingPathExtension + ".scene.json")
        let text = proposal.sceneText(
            video: relative(video, to: path), audio: audio.map { relative($0, to: path) }, fieldOfView: fieldOfView)
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw SessionError("cannot write \(path): \(error.localizedDescription)")
        }
        return [
            "\(path): \(proposal.people.count) people, \(proposal.speech.count) turns of speech over \(summary.frames) frames (proposed: check before trusting the figures)"
        ]
    }

    /// `file` as the scene at `scene` names it: relative to the scene's folder when both are.
    func relative(_ file: String, to scene: String) -> String {
        let absolute = { (p: String) in p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p }
        let folder = (absolute(scene) as NSString).deletingLastPathComponent
        let target = absolute(file)
        return target.hasPrefix(folder + "/") ? String(target.dropFirst(folder.count + 1)) : target
    }
}
