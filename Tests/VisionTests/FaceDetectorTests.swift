import DockCore
import Imaging
import Testing
import TestSupport
@testable import Vision

@Suite struct FaceDetectorTests {
    let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)

    @Test func yunetFindsTheAstronautsFace() throws {
        let photo = try Fixtures.photo("astronaut.png")
        let detector = try YuNetFaceDetector(modelPath: try registry.resolve("yunet"))
        let faces = try detector.detect(photo)
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(face.rect.intersectionOverUnion(AstronautLabel.face) > 0.6)
        #expect(face.score > 0.8)
        #expect(face.landmarks.count == 5)
    }
}
