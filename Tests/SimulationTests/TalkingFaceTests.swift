import DockCore
import Foundation
import Imaging
import Perception
import TestSupport
import Testing

@testable import Simulation

/// A generated person with the carphone clip's real talking face.
@Suite(.tags(.unit)) struct TalkingFaceTests {
    /// The labels the generator uses are the clip's scene-file labels.
    @Test func labelsMatchTheClipsSceneFile() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/scenes/clips/carphone.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let truth = try #require(root["truth"] as? [String: Any])
        let people = try #require(truth["people"] as? [[String: Any]])
        let faces = try #require(people.first?["faces"] as? [[Double]])
        #expect(faces.count == TalkingFace.faces.count)
        for (row, label) in zip(faces, TalkingFace.faces) {
            #expect(
                Int(row[0]) == label.frame
                    && PixelRect(x: row[1], y: row[2], width: row[3], height: row[4]) == label.rect)
        }
        // Between labels the box moves linearly.
        let between = TalkingFace.face(atFrame: 42)
        #expect(abs(between.x - (48 + 0.4 * (52 - 48))) < 1e-9 && abs(between.width - (56 + 0.4 * (49 - 56))) < 1e-9)
    }

    /// FaceMesh on the rendered world: the talker's mouth opens and closes while he speaks and
    /// holds still while he is silent; the ground truth box is where YuNet finds his face.
    @Test func lipsMoveOnlyWhileSpeaking() throws {
        var configuration = SceneConfiguration()
        configuration.people = [
            ScenePerson(
                id: 1, script: .still(yaw: 0, duration: 5), faceHeight: 130,
                speaking: [TimeSpan(1, 3.5)], talking: true)
        ]
        let scene = try GeneratedScene(
            photos: ScenePhotos(mediaDirectory: Fixtures.repositoryRoot + "/.cache/media"), configuration: configuration
        )
        let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)
        let mesh = try FaceMeshMouthMeter(modelPath: registry.resolve("facemesh"))
        let yunet = try YuNetFaceDetector(modelPath: registry.resolve("yunet"), inputWidth: 640)
        var speaking: [Double] = []
        var silent: [Double] = []
        for sequence in stride(from: UInt64(0), to: 150, by: 2) {
            let world = try scene.render(sequence: sequence)
            let truth = scene.groundTruth(sequence: sequence)[0]
            let region = PixelRect(
                x: truth.face.x - 150, y: truth.face.y - 150, width: truth.face.width + 300,
                height: truth.face.height + 300)
            let (crop, origin) = try #require(world.cropped(to: region))
            let face = try #require(try yunet.detect(crop).first)
            let found = PixelRect(
                x: face.rect.x + origin.x, y: face.rect.y + origin.y, width: face.rect.width, height: face.rect.height)
            #expect(found.intersectionOverUnion(truth.face) > 0.5, "frame \(sequence): \(found) vs \(truth.face)")
            guard let opening = mesh.measure(crop, face: face, person: UUID()) else { continue }
            if truth.speaking { speaking.append(opening) } else { silent.append(opening) }
        }
        #expect(speaking.count > 30 && silent.count > 30)
        let swing = speaking.max()! - speaking.min()!
        let still = silent.max()! - silent.min()!
        #expect(swing > 0.3 && still < 0.02, "speaking swing \(swing), silent \(still)")
    }
}
