import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import Perception

@Suite(.tags(.unit)) struct FaceDetectorTests {
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

    /// A second look around a face on a small camera frame can be a crop a few dozen pixels
    /// across: YuNet's deepest layers would shrink it to nothing (OpenCV throws), so it is padded.
    @Test func yunetLooksIntoCropsSmallerThanItsDeepestStride() throws {
        let photo = try Fixtures.photo("astronaut.png")
        let detector = try YuNetFaceDetector(modelPath: try registry.resolve("yunet"))
        for size in [PixelSize(width: 40, height: 20), PixelSize(width: 18, height: 60)] {
            let small = try photo.resized(to: size)
            #expect(try detector.detect(small).allSatisfy { $0.rect.maxX <= 40 && $0.rect.maxY <= 60 })
        }
        // And a face filling a 64-pixel crop is still found where it is.
        let face = AstronautLabel.face
        let around = PixelRect(
            x: face.x - face.width * 0.3, y: face.y - face.height * 0.3, width: face.width * 1.6,
            height: face.height * 1.6)
        let crop = try #require(photo.cropped(to: around))
        let shrunk = try crop.frame.resized(to: PixelSize(width: 56, height: 56))
        #expect(try detector.detect(shrunk).contains { $0.rect.width > 20 && $0.rect.maxX <= 56 })
    }
}

@Suite(.tags(.unit)) struct FallbackTests {
    @Test func haarCascadeFindsTheAstronautToo() throws {
        let photo = try Fixtures.photo("astronaut.png")
        let faces = try CascadeFaceDetector().detect(photo)
        #expect(faces.contains { $0.rect.intersectionOverUnion(AstronautLabel.face) > 0.5 })
    }

    @Test func modelWithWrongDigestIsRefusedAndHaarTakesOver() throws {
        let dir = Fixtures.temporaryDirectory("badmodels")
        try Data("not an onnx model".utf8).write(to: URL(fileURLWithPath: dir + "/face_detection_yunet_2022mar.onnx"))
        let registry = ModelRegistry(searchDirectories: [dir] + Fixtures.modelDirectories)
        #expect(throws: ModelError.self) { try registry.resolve("yunet") }
        let built = try DetectorFactory.makeFaceDetector(.yunet, registry: registry)
        #expect(built.detector.name == "haar")
        let reason = try #require(built.fallbackReason)
        #expect(reason.contains("sha256") && reason.contains("Haar"))
    }

    @Test func personModelWithWrongDigestFallsBackToHOG() throws {
        let dir = Fixtures.temporaryDirectory("badperson")
        try Data(repeating: 1, count: 2048).write(to: URL(fileURLWithPath: dir + "/frozen_inference_graph.pb"))
        let registry = ModelRegistry(searchDirectories: [dir] + Fixtures.modelDirectories)
        let built = try #require(try DetectorFactory.makeBodyDetector(.ssdlite, registry: registry))
        #expect(built.detector.name == "hog")
        #expect(built.fallbackReason?.contains("sha256") == true && built.fallbackReason?.contains("HOG") == true)
        #expect(try DetectorFactory.makeBodyDetector(.none, registry: registry) == nil)
    }

    @Test func lbpCascadeFindsTheAstronaut() throws {
        let built = try DetectorFactory.makeFaceDetector(.lbp, registry: ModelRegistry(searchDirectories: []))
        #expect(built.detector.name == "lbp" && built.fallbackReason == nil)
        let faces = try built.detector.detect(try Fixtures.photo("astronaut.png"))
        // LBP boxes only the inner face (eyes to mouth), tighter than the label.
        #expect(
            faces.contains {
                AstronautLabel.face.contains(x: $0.rect.x + $0.rect.width / 2, y: $0.rect.y + $0.rect.height / 2)
                    && $0.rect.intersectionOverUnion(AstronautLabel.face) > 0.3
            }, "\(faces.map(\.rect))")
    }

    @Test func missingModelFallsBackAndSaysWhereItLooked() throws {
        let registry = ModelRegistry(searchDirectories: ["/nonexistent/models"])
        let built = try DetectorFactory.makeFaceDetector(.yunet, registry: registry)
        #expect(built.detector.name == "haar")
        #expect(built.fallbackReason?.contains("/nonexistent/models") == true)
    }

    @Test func unloadableModelFileIsAnErrorNotACrash() throws {
        let dir = Fixtures.temporaryDirectory("garbage")
        let path = dir + "/broken.onnx"
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: DetectorError.self) { try YuNetFaceDetector(modelPath: path) }
    }

    @Test func manifestFileMatchesTheRegistry() throws {
        struct Manifest: Decodable { var models: [ModelEntry] }
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/models/manifest.json"))
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        #expect(manifest.models == ModelRegistry.entries)
    }
}

@Suite(.tags(.unit)) struct FaceYawTests {
    let frontal = [
        PixelPoint(x: 40, y: 50), PixelPoint(x: 80, y: 50), PixelPoint(x: 60, y: 70),
        PixelPoint(x: 45, y: 90), PixelPoint(x: 75, y: 90),
    ]

    @Test func frontalFaceHasNoYaw() throws {
        let yaw = try #require(FaceYaw.estimate(landmarks: frontal))
        #expect(abs(yaw) < 1e-9)
    }

    @Test func noseTowardImageRightIsPositive() throws {
        var turned = frontal
        turned[2].x += 10
        let right = try #require(FaceYaw.estimate(landmarks: turned))
        turned[2].x -= 20
        let left = try #require(FaceYaw.estimate(landmarks: turned))
        #expect(right > 0.3 && left < -0.3 && abs(right + left) < 1e-9)
    }

    @Test func astronautLooksRoughlyAtTheCamera() throws {
        let photo = try Fixtures.photo("astronaut.png")
        let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)
        let face = try #require(try YuNetFaceDetector(modelPath: registry.resolve("yunet")).detect(photo).first)
        let yaw = try #require(FaceYaw.estimate(landmarks: face.landmarks))
        #expect(abs(yaw) < 20 * .pi / 180)
        #expect(FaceYaw.estimate(landmarks: []) == nil)
    }

    @Test func mapperConvertsToLowerLeftUnitRects() throws {
        let detection = Detection(
            kind: .humanFace, label: "face", rect: PixelRect(x: 100, y: 0, width: 100, height: 50),
            score: 0.9, landmarks: frontal, stamp: FrameStamp(sequence: 3, time: .zero),
            imageSize: PixelSize(width: 1000, height: 500))
        let observation = try #require(ObservationMapper().observations(from: [detection]).first)
        #expect(observation.rect == NormalizedRect(x: 0.1, y: 0.9, width: 0.1, height: 0.1))
        #expect(observation.stamp.sequence == 3 && observation.kind == .humanFace && observation.faceYaw != nil)
        #expect(observation.label == nil)
        var cat = detection
        cat.kind = .object
        cat.label = "cat"
        #expect(ObservationMapper().observations(from: [cat]).first?.label == "cat")
    }
}
