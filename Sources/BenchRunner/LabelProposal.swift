import DockCore
import Foundation
import Pipeline
import SceneFiles
import Simulation

/// A recording's truth as the pipeline proposes it: each person's face boxes (a face where the
/// tracker had one, the body's box otherwise left out), thinned to keyframes, with the frames
/// between two sightings more than half a second apart hidden; and each person's speech, the
/// runs of frames where their speakingConfidence was at least a half.
struct LabelProposal {
    var truth: LabelledTruth
    var people: [LabelledTruth.Person] { truth.people }
    var speech: [LabelledTruth.Speech] { truth.speech }

    /// People seen for less than this are taken for false detections.
    static let shortest = 0.5

    let size: PixelSize

    init(frames: [[SubjectRecord]], frameRate: Double, size: PixelSize, every: Double) {
        self.size = size
        truth = LabelledTruth(people: [], frameRate: frameRate)
        let coordinates = ImageCoordinates(size: size)
        var boxes: [Int: [(frame: Int, rect: PixelRect)]] = [:]
        var speaking: [Int: [Int]] = [:]
        var order: [Int] = []
        for (frame, subjects) in frames.enumerated() {
            for subject in subjects where subject.kind == .humanFace {
                if boxes[subject.person] == nil { order.append(subject.person) }
                boxes[subject.person, default: []].append((frame, coordinates.pixels(subject.rect)))
                if (subject.speaking ?? 0) >= 0.5 { speaking[subject.person, default: []].append(frame) }
            }
        }
        let step = max(1, Int((every * frameRate).rounded()))
        let gap = max(1, Int((0.5 * frameRate).rounded()))
        for person in order {
            let seen = boxes[person]!
            guard Double(seen.count) / frameRate >= Self.shortest else { continue }
            let id = truth.people.count + 1
            var keyframes: [LabelledTruth.Keyframe] = []
            var hidden: [ClosedRange<Int>] = []
            for (index, sighting) in seen.enumerated() {
                var keep = keyframes.isEmpty || index == seen.count - 1
                if index > 0, sighting.frame - seen[index - 1].frame > gap {
                    // Out of sight for a while: the stretch ends where they were last seen.
                    let previous = seen[index - 1]
                    hidden.append((previous.frame + 1)...(sighting.frame - 1))
                    if keyframes.last?.frame != previous.frame { keyframes.append(Self.keyframe(previous)) }
                    keep = true
                }
                if let last = keyframes.last, sighting.frame - last.frame >= step { keep = true }
                if keep { keyframes.append(Self.keyframe(sighting)) }
            }
            truth.people.append(LabelledTruth.Person(id: id, keyframes: keyframes, hidden: hidden))
            for run in Self.runs(speaking[person] ?? [], joining: gap) where run.1 - run.0 >= 2 {
                truth.speech.append(
                    LabelledTruth.Speech(
                        id: id, span: TimeSpan(Double(run.0) / frameRate, Double(run.1 + 1) / frameRate)))
            }
        }
    }

    /// A sighting as a keyframe; the scene writer keeps whole pixels.
    static func keyframe(_ sighting: (frame: Int, rect: PixelRect)) -> LabelledTruth.Keyframe {
        LabelledTruth.Keyframe(frame: sighting.frame, face: sighting.rect)
    }

    /// Consecutive frames (gaps up to `joining` bridged) as (first, last).
    static func runs(_ frames: [Int], joining: Int) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for frame in frames {
            if let last = out.last, frame - last.1 <= joining {
                out[out.count - 1].1 = frame
            } else {
                out.append((frame, frame))
            }
        }
        return out
    }

    /// The scene file, every key docs/scenes.md describes.
    func sceneText(video: String, audio: String?, fieldOfView: Double) -> String {
        var fields = truth.sceneFields
        fields["proposed"] = true
        var scene: [String: Any] = [
            "description":
                "Proposed by dockctl label from \(video): the faces and speech the pipeline found, unchecked.",
            "world": ["video": video, "horizontal_fov_deg": fieldOfView],
            // The camera on the simulated head: as many pixels as the recording, half its field.
            "camera": ["width": size.width, "height": size.height, "horizontal_fov_deg": (fieldOfView / 2).rounded()],
            "truth": fields,
        ]
        if let audio { scene["audio"] = audio }
        return LabelledTruth.sceneText(scene)
    }
}
