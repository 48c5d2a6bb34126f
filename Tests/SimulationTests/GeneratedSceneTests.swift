import DockCore
import Foundation
import Imaging
import Perception
import TestSupport
import Testing

@testable import Simulation

@Suite(.tags(.unit)) struct GeneratedSceneTests {
    func scene(_ script: SceneScript = .walk) throws -> GeneratedScene {
        var configuration = SceneConfiguration()
        configuration.script = script
        return try GeneratedScene(
            photos: ScenePhotos(mediaDirectory: Fixtures.repositoryRoot + "/.cache/media"), configuration: configuration
        )
    }

    @Test func groundTruthIsWhereYuNetFindsTheFace() throws {
        let scene = try scene()
        let detector = try YuNetFaceDetector(
            modelPath: ModelRegistry(searchDirectories: Fixtures.modelDirectories).resolve("yunet"),
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

    /// Two people crossing, the nearer drawn over the farther: the farther one's face is hidden
    /// while the nearer passes in front, and only then.
    @Test func someoneBehindANearerPersonIsHidden() throws {
        var configuration = SceneConfiguration()
        configuration.people = [
            ScenePerson(
                id: 1, script: SceneScript(keyframes: [.init(time: 0, yaw: -10), .init(time: 2, yaw: 10)]),
                faceHeight: 130),
            ScenePerson(
                id: 2, script: SceneScript(keyframes: [.init(time: 0, yaw: 10), .init(time: 2, yaw: -10)]),
                faceHeight: 95),
        ]
        let scene = try GeneratedScene(
            photos: ScenePhotos(mediaDirectory: Fixtures.repositoryRoot + "/.cache/media"), configuration: configuration
        )
        let apart = scene.groundTruth(sequence: 0)
        let crossing = scene.groundTruth(sequence: 30)  // both at 0°
        #expect(apart.allSatisfy { !$0.hidden })
        #expect(crossing.first { $0.id == 2 }?.hidden == true && crossing.first { $0.id == 1 }?.hidden == false)
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

/// The generated suite's situations: several people, pillars, turning away, light, blur, noise.
@Suite(.tags(.unit)) struct SceneEffectsTests {
    let photos = ScenePhotos(mediaDirectory: Fixtures.repositoryRoot + "/.cache/media")

    func meanLevel(_ frame: Frame, in rect: PixelRect) -> Double {
        var sum = 0.0
        var count = 0.0
        for y in Int(rect.y)..<Int(rect.maxY) {
            for x in Int(rect.x)..<Int(rect.maxX) {
                for c in 0..<frame.format.channels {
                    sum += Double(frame.pixels[(y * frame.width + x) * frame.format.channels + c])
                    count += 1
                }
            }
        }
        return sum / count
    }

    @Test func peopleHaveTheirOwnTruthAndAPillarHidesThem() throws {
        var c = SceneConfiguration()
        c.people = [
            ScenePerson(id: 7, script: SceneScript(keyframes: [.init(time: 0, yaw: -20), .init(time: 2, yaw: 20)])),
            ScenePerson(
                id: 9, script: .still(yaw: 25, duration: 2), faceHeight: 80, mirrored: true, speaking: [TimeSpan(1, 2)]),
        ]
        c.occluders = [SceneOccluder(yaw: 0, width: 8)]
        let scene = try GeneratedScene(photos: photos, configuration: c)
        #expect(scene.frameCount == 61)
        let middle = scene.groundTruth(sequence: 30)  // person 7 at 0°, behind the pillar
        #expect(middle.map(\.id) == [7, 9])
        #expect(middle[0].hidden && !middle[1].hidden)
        #expect(!middle[0].speaking && middle[1].speaking && !scene.groundTruth(sequence: 10)[1].speaking)
        #expect(abs(middle[1].face.height - 80) < 1e-9)
        #expect(!scene.groundTruth(sequence: 0)[0].hidden)
        // The pillar is drawn over the hidden face: flat grey, not the face's texture.
        let frame = try scene.render(sequence: 30)
        let pillar = Color(red: 118, green: 112, blue: 104)
        let face = middle[0].face
        let centre = (Int(face.midY) * frame.width + Int(face.midX)) * 3
        #expect(
            frame.pixels[centre] == pillar.blue && frame.pixels[centre + 1] == pillar.green
                && frame.pixels[centre + 2] == pillar.red)
    }

    @Test func turningAwayCoversTheFaceWithHair() throws {
        var c = SceneConfiguration()
        c.people = [ScenePerson(id: 1, script: .still(duration: 2), turnedAway: [TimeSpan(1, 2)])]
        let scene = try GeneratedScene(photos: photos, configuration: c)
        let front = try scene.render(sequence: 0)
        let back = try scene.render(sequence: 45)
        let face = scene.groundTruth(sequence: 45)[0]
        #expect(face.turnedAway && !scene.groundTruth(sequence: 0)[0].turnedAway)
        let inner = PixelRect(x: face.face.midX - 20, y: face.face.midY - 20, width: 40, height: 40)
        #expect(meanLevel(back, in: inner) < 60 && meanLevel(front, in: inner) > 90)
    }

    @Test func lightingNoiseJPEGAndBlurChangeTheFrameRepeatably() throws {
        var plain = SceneConfiguration()
        plain.people = [
            ScenePerson(id: 1, script: SceneScript(keyframes: [.init(time: 0, yaw: -20), .init(time: 1, yaw: 20)]))
        ]
        var dim = plain
        dim.lighting = [(0, 1), (1, 0.5)]
        var rough = plain
        rough.noiseSigma = 6
        rough.jpegQuality = 20
        rough.motionBlur = true
        let a = try GeneratedScene(photos: photos, configuration: plain).render(sequence: 30)
        let b = try GeneratedScene(photos: photos, configuration: dim).render(sequence: 30)
        let wall = PixelRect(x: 100, y: 100, width: 200, height: 100)
        #expect(abs(meanLevel(b, in: wall) / meanLevel(a, in: wall) - 0.5) < 0.02)
        let roughScene = try GeneratedScene(photos: photos, configuration: rough)
        var r1 = try roughScene.render(sequence: 15)
        var r2 = try roughScene.render(sequence: 15)
        try roughScene.applyCameraEffects(to: &r1)
        try GeneratedScene(photos: photos, configuration: rough).applyCameraEffects(to: &r2)
        #expect(r1.pixels == r2.pixels)
        let sharp = try GeneratedScene(photos: photos, configuration: plain).render(sequence: 15)
        #expect(r1.pixels != sharp.pixels)
        #expect(SceneConfiguration().lightingGain(at: 3) == 1 && dim.lightingGain(at: 0.5) == 0.75)
    }

    /// The scene repaints only where its last frame differed from the background: every frame is
    /// still exactly what a fresh scene renders for it, whether the caller kept the last frame
    /// (copied on write) or let it go (repainted in place), with people crossing a pillar, motion
    /// blur and a lighting change that repaints everything.
    @Test func repaintingInPlaceGivesTheFramesAFreshSceneRenders() throws {
        var c = SceneConfiguration()
        c.people = [
            ScenePerson(id: 1, script: SceneScript(keyframes: [.init(time: 0, yaw: -25), .init(time: 2, yaw: 25)])),
            ScenePerson(id: 2, script: .still(yaw: 10, duration: 2), faceHeight: 70, mirrored: true),
        ]
        c.occluders = [SceneOccluder(yaw: 0, width: 6)]
        c.motionBlur = true
        c.lighting = [(0, 1), (0.8, 1), (1.0, 0.6), (1.2, 1)]
        let running = try GeneratedScene(photos: photos, configuration: c)
        var kept: Frame?
        for (index, sequence) in stride(from: UInt64(0), to: 61, by: 4).enumerated() {
            let frame = try running.render(sequence: sequence)
            let fresh = try GeneratedScene(photos: photos, configuration: c).render(sequence: sequence)
            #expect(differences(frame, fresh) == "none", "frame \(sequence)")
            if let kept {
                let again = try GeneratedScene(photos: photos, configuration: c).render(sequence: kept.stamp.sequence)
                #expect(differences(kept, again) == "none", "frame \(kept.stamp.sequence), kept meanwhile")
            }
            kept = index % 2 == 0 ? frame : nil
        }
    }

    /// How many pixels differ between two frames of one size, and where: "none" when none do.
    func differences(_ a: Frame, _ b: Frame) -> String {
        guard a.size == b.size, a.format == b.format else { return "sizes differ" }
        if a.pixels == b.pixels { return "none" }
        var (count, minX, minY, maxX, maxY) = (0, Int.max, Int.max, 0, 0)
        let channels = a.format.channels
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * channels
                if a.pixels[i..<i + channels] != b.pixels[i..<i + channels] {
                    count += 1
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
        }
        return count == 0 ? "none" : "\(count) pixels within x \(minX)...\(maxX), y \(minY)...\(maxY)"
    }
}
