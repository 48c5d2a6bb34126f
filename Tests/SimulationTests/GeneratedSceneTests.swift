import DockCore
import Foundation
import Imaging
import Testing
import TestSupport
import Vision
@testable import Simulation

@Suite struct GeneratedSceneTests {
    func scene(_ script: SceneScript = .walk) throws -> GeneratedScene {
        var configuration = SceneConfiguration()
        configuration.script = script
        return try GeneratedScene(photos: ScenePhotos(mediaDirectory: Fixtures.repositoryRoot + "/.cache/media"), configuration: configuration)
    }

    @Test func groundTruthIsWhereYuNetFindsTheFace() throws {
        let scene = try scene()
        let detector = try YuNetFaceDetector(modelPath: ModelRegistry(searchDirectories: Fixtures.modelDirectories).resolve("yunet"),
                                             inputWidth: 1600)
        for sequence: UInt64 in [0, 90, 200, 330] {
            let world = try scene.render(sequence: sequence)
            let truth = try #require(scene.groundTruth(sequence: sequence).first)
            let faces = try detector.detect(world)
            #expect(faces.contains { $0.rect.intersectionOverUnion(truth.face) > 0.55 }, "frame \(sequence)")
        }
    }

    @Test func framesFollowTheScriptAndEnd() throws {
        let scene = try scene(.still(yaw: 10, duration: 1))
        var count = 0
        while let frame = try scene.nextFrame() {
            #expect(frame.stamp.sequence == UInt64(count))
            #expect(abs(frame.stamp.time.seconds - Double(count) / 30) < 1e-9)
            count += 1
        }
        #expect(count == 31)
        // 10° right of the world's axis.
        let center = scene.faceCenter(at: 0.5)
        let k = scene.worldIntrinsics
        #expect(abs(center.x - (k.cx + k.fx * tan(10 * .pi / 180))) < 1e-6)
    }

    @Test func missingPhotosAreAClearError() {
        #expect {
            try GeneratedScene(photos: ScenePhotos(mediaDirectory: "/nonexistent"))
        } throws: { error in
            (error as? FrameSourceError)?.message.contains("Scripts/setup") == true
        }
    }

    @Test func scriptInterpolatesBetweenKeyframes() {
        let script = SceneScript(keyframes: [.init(time: 0, yaw: 0), .init(time: 2, yaw: 10, pitch: -2)])
        #expect(script.angles(at: 1) == (5, -1))
        #expect(script.angles(at: -1) == (0, 0))
        #expect(script.angles(at: 9) == (10, -2))
    }
}
