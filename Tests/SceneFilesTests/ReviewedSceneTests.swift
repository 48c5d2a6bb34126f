import DockCore
import Foundation
import Pipeline
import SceneFiles
import Simulation
import TestSupport
import Testing

/// A scene file under review: each edit is checked by the scene reader and written back at
/// once, every key the review does not touch stays as it was, and edits are undone in order.
@Suite(.tags(.unit)) struct ReviewedSceneTests {
    let directory = Fixtures.temporaryDirectory("review-scene")

    /// vtest.avi (768 × 576, 10 fps, 795 frames) with two proposed people, person 2 the primary.
    func proposal(truth extra: String = "") throws -> String {
        let video = try Fixtures.mediaPath("opencv/vtest.avi")
        let path = directory + "/street.json"
        try """
        {"description": "two walkers", "world": {"video": "\(video)", "horizontal_fov_deg": 80},
         "camera": {"width": 320, "height": 240, "horizontal_fov_deg": 40},
         "truth": {"proposed": true, "primary": 2, \(extra)
           "people": [{"id": 1, "faces": [[0, 100, 100, 40, 40], [100, 300, 100, 40, 40]]},
                      {"id": 2, "faces": [[50, 500, 200, 50, 50], [200, 600, 200, 50, 50]], "hidden": [[80, 90]]}],
           "speech": [{"id": 2, "from_s": 6, "to_s": 8}]}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func video(_ path: String) throws -> (LabelledTruth, BenchScene) {
        let scene = try BenchScene.load(path: path)
        guard case .video(_, let truth) = scene.world else { throw SessionError("not a recording") }
        return (truth, scene)
    }

    @Test func eachEditIsWrittenBackAndUndoneInOrder() throws {
        let path = try proposal()
        var review = try ReviewedScene(path: path)
        #expect(review.proposed && review.primary == 2 && !review.canUndo)

        try review.apply(.merge(2, into: 1))
        var (truth, scene) = try video(path)
        #expect(truth == review.truth && truth.people.map(\.id) == [1] && truth.speech.map(\.id) == [1])
        // The primary followed the merge; the keys the review does not touch are as they were.
        #expect(scene.primaryID == 1 && scene.description == "two walkers" && scene.viewFieldOfView == 40)

        try review.setChecked(true)
        (truth, scene) = try video(path)
        #expect(!scene.truthIsProposed && !review.proposed)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("proposed"))

        #expect(try review.undo() && review.undo())
        (truth, scene) = try video(path)
        #expect(truth.people.map(\.id) == [1, 2] && scene.truthIsProposed && scene.primaryID == 2)
        #expect(truth.people[1].hidden == [80...90] && truth.speech.map(\.span) == [TimeSpan(6, 8)])
        #expect(try !review.undo())
    }

    @Test func anEditTheReaderWouldRefuseIsNotMadeAndTheFileIsUntouched() throws {
        let path = try proposal()
        var review = try ReviewedScene(path: path)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        func refusal(_ edit: TruthEdit) -> String {
            do {
                try review.apply(edit)
                return "made"
            } catch { return error.message }
        }
        // vtest.avi lasts 79.5 s: speech past its end is not a turn of this recording.
        #expect(
            refusal(.speech(1, TimeSpan(70, 90), speaking: true)).hasPrefix(
                "the edit would leave the scene unreadable, so it was not made: truth.speech[1].to_s"))
        #expect(refusal(.drop(1)) == "made")
        #expect(refusal(.drop(2)) == "a recording's truth needs at least one person: this edit would leave none")
        #expect(refusal(.split(9, atFrame: 3)) == "no person 9 (people: 2)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) != before)
        #expect(try review.undo())
        #expect(try String(contentsOfFile: path, encoding: .utf8) == review.text)
    }

    @Test func truthFromLabelFilesAndGeneratedScenesAreNotReviewed() throws {
        try "1,1,10,10,5,5,1,1,1\n".write(toFile: directory + "/gt.txt", atomically: true, encoding: .utf8)
        let video = try Fixtures.mediaPath("opencv/vtest.avi")
        let labelled = directory + "/labelled.json"
        try #"{"world": {"video": "\#(video)"}, "truth": {"mot": "gt.txt"}}"#
            .write(toFile: labelled, atomically: true, encoding: .utf8)
        #expect {
            _ = try ReviewedScene(path: labelled)
        } throws: { error in
            (error as? SessionError)?.message.contains("its truth comes from a label file (truth.mot)") == true
        }
        #expect {
            _ = try ReviewedScene(path: Fixtures.repositoryRoot + "/scenes/steps.json")
        } throws: { error in
            (error as? SessionError)?.message.hasSuffix("review is for recordings, and this scene is generated") == true
        }
    }
}
