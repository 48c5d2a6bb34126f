import DockCore
import Foundation
import SceneFiles
import Simulation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline
@testable import dockctl_tools

/// Scene files: the committed suite is the generator's, every file loads, and bad files are
/// refused before anything runs with the key's path in the message.
@Suite(.tags(.unit)) struct BenchSceneTests {
    let directory = Fixtures.temporaryDirectory("scenes")

    func write(_ text: String, name: String = "scene.json") -> String {
        let path = directory + "/" + name
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func refusal(_ text: String) -> String {
        do {
            _ = try BenchScene.load(path: write(text))
            return "accepted"
        } catch {
            return error.message
        }
    }

    func videoScene(truth: String, extra: String = "") throws -> String {
        let video = try Fixtures.mediaPath("opencv/vtest.avi")
        return """
            {"world": {"video": "\(video)", "horizontal_fov_deg": 80}, "camera": {"width": 320, "height": 240, "horizontal_fov_deg": 40},
             "truth": \(truth) \(extra)}
            """
    }

    @Test func committedSuiteIsTheGeneratorsAndLoads() throws {
        for (name, json) in SceneSuite.scenes {
            let path = Fixtures.repositoryRoot + "/scenes/\(name).json"
            let committed = try String(contentsOfFile: path, encoding: .utf8)
            #expect(
                committed == SceneSuite.text(json),
                "scenes/\(name).json differs from the generator: run dockctl scenes write scenes")
            let scene = try BenchScene.load(path: path)
            guard case .generated(let generated) = scene.world else {
                Issue.record("\(name) is not generated")
                continue
            }
            #expect(
                scene.name == name && !generated.people.isEmpty && scene.viewSize == PixelSize(width: 1280, height: 720)
            )
        }
        let steps = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/visca-steps.json")
        #expect(steps.steps == [3, 6])
        #expect(abs(steps.gimbal.speedStep - 2.5 * .pi / 180) < 1e-12 && steps.gimbal.latency == 0.08)
    }

    @Test func megamindClipSceneLoads() throws {
        let scene = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/clips/megamind.json")
        guard case .video(let path, let truth) = scene.world else {
            Issue.record("not a recording")
            return
        }
        #expect(path.hasSuffix("Megamind.avi") && truth.people.count == 5 && scene.steps.count == 3)
        // Shot one: the woman and the diner behind her; shot four: the man alone.
        #expect(
            truth.groundTruth(sequence: 50).map(\.id) == [1, 2] && truth.groundTruth(sequence: 250).map(\.id) == [5])
    }

    @Test func labelledRecordingLoadsAndInterpolates() throws {
        let path = write(
            try videoScene(
                truth: """
                    {"people": [{"id": 4, "faces": [[10, 100, 100, 20, 30], [20, 200, 100, 40, 30]], "hidden": [[12, 14]]}],
                     "speech": [{"id": 4, "from_s": 0.5, "to_s": 1.0}], "primary": 4}
                    """))
        let scene = try BenchScene.load(path: path)
        guard case .video(_, let truth) = scene.world else {
            Issue.record("not a recording")
            return
        }
        #expect(truth.groundTruth(sequence: 9).isEmpty)
        let middle = try #require(truth.groundTruth(sequence: 15).first)
        #expect(middle.face == PixelRect(x: 150, y: 100, width: 30, height: 30) && middle.id == 4)
        #expect(
            truth.groundTruth(sequence: 13).first?.hidden == true
                && truth.groundTruth(sequence: 15).first?.hidden == false)
        // vtest.avi runs at 10 fps: frame 15 is at 1.5 s, frame 10 at 1.0 s.
        #expect(truth.groundTruth(sequence: 20).first?.speaking == false)
        #expect(scene.primaryID == 4 && scene.viewSize == PixelSize(width: 320, height: 240))
    }

    /// A recording's truth from label files other tools wrote: motmetrics' MOT boxes and
    /// pyannote's RTTM turns, named beside the scene file.
    @Test func labelFilesGiveARecordingItsTruth() throws {
        let boxes = try String(contentsOfFile: try Fixtures.mediaPath("motmetrics/TUD-Campus/gt.txt"), encoding: .utf8)
        let turns = try String(contentsOfFile: try Fixtures.mediaPath("conversation/sample.rttm"), encoding: .utf8)
        try boxes.write(toFile: directory + "/gt.txt", atomically: true, encoding: .utf8)
        try turns.write(toFile: directory + "/talk.rttm", atomically: true, encoding: .utf8)
        let scene = try BenchScene.load(
            path: write(
                try videoScene(
                    truth: #"{"mot": "gt.txt", "rttm": "talk.rttm", "rttm_speakers": {"speaker90": 4, "speaker91": 5}}"#
                ), name: "labelled.json"))
        guard case .video(_, let truth) = scene.world else {
            Issue.record("not a recording")
            return
        }
        #expect(truth.people.count == 8 && truth.speech.count == 10 && Set(truth.speech.map(\.id)) == [4, 5])
        // Frame 1 of the MOT file is the video's frame 0; person 4 speaks from 6.69 s (frame 66.9 at 10 fps).
        #expect(truth.groundTruth(sequence: 0).count == 6)
        #expect(
            truth.groundTruth(sequence: 0).first { $0.id == 1 }?.face
                == PixelRect(x: 399, y: 182, width: 121, height: 229))
        #expect(truth.groundTruth(sequence: 68).first { $0.id == 4 }?.speaking == true)
        #expect(truth.groundTruth(sequence: 66).first { $0.id == 4 }?.speaking == false)

        try "1,1,10,10,5,5\n2,1,abc,10,5,5\n".write(toFile: directory + "/bad.txt", atomically: true, encoding: .utf8)
        let bad = refusal(try videoScene(truth: #"{"mot": "bad.txt"}"#))
        #expect(bad.contains("truth.mot: \(directory)/bad.txt: line 2, field 3 (x): 'abc' is not a number"), "\(bad)")
        let twice = refusal(
            try videoScene(truth: #"{"mot": "gt.txt", "people": [{"id": 1, "faces": [[0, 9, 9, 4, 4]]}]}"#))
        #expect(twice.contains("truth.people: give the people's boxes once"), "\(twice)")
        let stranger = refusal(
            try videoScene(
                truth: #"{"mot": "gt.txt", "rttm": "talk.rttm", "rttm_speakers": {"speaker90": 40, "speaker91": 5}}"#))
        #expect(stranger.contains("truth.rttm_speakers: person 40 has no face boxes"), "\(stranger)")
        let unnamed = refusal(try videoScene(truth: #"{"mot": "gt.txt", "rttm": "talk.rttm"}"#))
        #expect(unnamed.contains("line 1, field 8 (name): speaker speaker90 is given to no person"), "\(unnamed)")
    }

    @Test func badScenesAreRefusedWithTheKeysPath() throws {
        #expect(refusal("{").contains("not valid JSON"))
        #expect(
            refusal(#"{"world": {"video": "/nonexistent/clip.avi"}, "truth": {}}"#).contains(
                "world.video: cannot open /nonexistent/clip.avi"))
        #expect(
            refusal(#"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}]}}, "camera": {"hfov": 50}}"#)
                .contains("camera.hfov: unknown key"))
        #expect(
            refusal(#"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0], [0, 5]]}]}}}"#)
                .contains("world.generated.people[0].path[1]: times must increase"))
        #expect(
            refusal(
                #"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}, {"id": 1, "path": [[0, 9]]}]}}}"#
            )
            .contains("world.generated.people[1].id: 1 is used twice"))
        #expect(
            refusal(#"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}]}}, "truth": {"people": []}}"#)
                .contains("truth.people: a generated world's truth is exact"))
        #expect(
            refusal(#"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}], "motion_blur": 1}}}"#)
                .contains("world.generated.motion_blur: expects true or false"))
        #expect(
            refusal(
                #"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0], [2, 0]]}]}}, "truth": {"steps_s": [1, 9]}}"#
            )
            .contains("truth.steps_s[1]: 9 s is outside the scene"))
        #expect(
            refusal(
                #"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}]}, "horizontal_fov_deg": 50}, "camera": {"horizontal_fov_deg": 60}}"#
            )
            .contains("camera.horizontal_fov_deg: must be narrower"))
        // Inconsistent truth for a recording (vtest.avi: 768 × 576, 795 frames).
        #expect(
            refusal(try videoScene(truth: #"{"people": [{"id": 1, "faces": [[900, 10, 10, 20, 20]]}]}"#))
                .contains("truth.people[0].faces[0]: frame 900 is not a frame of the video (0…794)"))
        #expect(
            refusal(
                try videoScene(truth: #"{"people": [{"id": 1, "faces": [[1, 10, 10, 20, 20], [2, 900, 10, 20, 20]]}]}"#)
            )
            .contains("truth.people[0].faces[1]: the box must have a size and its centre inside the 768x576 video"))
        #expect(
            refusal(
                try videoScene(truth: #"{"people": [{"id": 1, "faces": [[5, 10, 10, 20, 20], [3, 10, 10, 20, 20]]}]}"#)
            )
            .contains("truth.people[0].faces[1]: frames must increase"))
        #expect(
            refusal(
                try videoScene(
                    truth:
                        #"{"people": [{"id": 1, "faces": [[1, 10, 10, 20, 20]]}], "speech": [{"id": 2, "from_s": 0, "to_s": 1}]}"#
                )
            )
            .contains("truth.speech[0].id: must name one of the people (1)"))
        #expect(
            refusal(
                try videoScene(
                    truth: #"{"people": [{"id": 1, "faces": [[1, 10, 10, 20, 20]]}]}"#,
                    extra: #", "audio": "missing.wav""#)
            )
            .contains("audio: cannot read"))
        #expect(refusal(#"{"world": {"video": "x.avi"}}"#).contains("scene.json"))
        #expect(
            refusal(#"{"world": {"generated": {"people": [{"id": 1, "path": [[0, 0]]}]}}, "mic_wiring": "crossed"}"#)
                .contains(#"mic_wiring: expects "left-right" or "right-left", got "crossed""#))
    }

    @Test func scenesCommandChecksAndWrites() throws {
        let out = Fixtures.temporaryDirectory("suite")
        let written = try ScenesCommand.run(arguments: ["write", out])
        #expect(written.count == SceneSuite.scenes.count)
        let checked = try ScenesCommand.run(arguments: ["check", out])
        #expect(checked.count == SceneSuite.scenes.count && checked.allSatisfy { $0.contains(": ok (") })
        #expect(throws: SessionError.self) { try ScenesCommand.run(arguments: ["check", write(#"{"world": 3}"#)]) }
    }
}
