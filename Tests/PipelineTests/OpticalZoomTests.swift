import BenchRunner
import DockCore
import Foundation
import Motion
import SceneFiles
import TestSupport
import Testing

@testable import Pipeline
@testable import Rigs

/// The optical zoom in closed loop on `scenes/zoom-walk-in.json`: a person far from a camera with
/// a 4× simulated lens walks toward it and back. The figures come from where the person truly
/// is, seen through the lens as it was for each frame.
@Suite(.tags(.realTime), .notInFastRuns, .serialized) struct OpticalZoomTests {
    func run(_ zoom: ZoomChoice, lensStart: Double = 1) throws -> SceneRun {
        var scene = try BenchScene.load(path: Fixtures.repositoryRoot + "/scenes/zoom-walk-in.json")
        scene.zoomLens?.startFactor = lensStart
        var base = SessionConfiguration()
        base.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        base.modelsDirectory = Fixtures.repositoryRoot + "/models"
        base.bodyDetector = .none
        base.keepFrameRecords = true
        base.zoom = zoom
        return try SceneRun.run(scene, base: base, law: .dock)
    }

    @Test func autoKeepsTheFaceNearItsShareWithoutBreathing() throws {
        let auto = try run(.auto)
        let fixed = try run(.off)
        let zoomed = try #require(auto.zoom)
        let unzoomed = try #require(fixed.zoom)
        let error = try #require(zoomed.sizeErrors.median)
        let fixedError = try #require(unzoomed.sizeErrors.median)
        #expect(error < 0.3, "median face size error \(error)")
        #expect(error < fixedError * 0.7, "auto \(error) against a fixed lens \(fixedError)")
        // A walk in and out takes a handful of zooms, not one every frame or two.
        let moves = try #require(auto.summary.zoom?.moves)
        #expect((2...15).contains(moves), "\(moves) zoom changes")
        // The head keeps the person in view while the lens narrows its picture.
        #expect((auto.evaluation.loop.inViewShare ?? 0) > 0.95)
    }

    @Test func offLeavesTheZoomWhereItWas() throws {
        let fixed = try run(.off, lensStart: 2)
        let report = try #require(fixed.summary.zoom)
        #expect(report.moves == 0)
        #expect(abs(report.finalFactor - 2) < 1e-9)
        #expect(fixed.summary.report().contains("zoom: off, left at 2.00×"))
    }

    /// A remote's zoom keys (DockKit's `cameraZoom` events) step the lens while the engine
    /// zooms by itself: a still person zoomed in on by the engine, then two presses out, half a
    /// doubling each, held there though the engine would zoom in again.
    @Test func theZoomKeysStepTheLens() throws {
        var c = SessionConfiguration()
        c.source = .demo
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.bodyDetector = .none
        c.realTime = false
        c.scene.script = .still(yaw: 0, pitch: 0, duration: 8)
        c.simulatedZoomLens = ZoomLensModel(maximumFactor: 4)
        c.zoom = .auto
        c.zoomFaceShare = 0.4
        c.maximumFrames = 200
        let session = try Pipeline(simulating: c)
        let lens = try #require(session.rig.zoom)
        let clock = session.rig.clock
        var factors: [Int: Double] = [:]
        var frame = 0
        _ = try session.run(stop: StopFlag()) { _ in
            frame += 1
            if frame == 100 {
                factors[100] = lens.factor(at: clock.now)
                session.accessory.post(.cameraZoom(factor: -1))
                session.accessory.post(.cameraZoom(factor: -1))
            }
            if frame == 190 { factors[190] = lens.factor(at: clock.now) }
        }
        let zoomedIn = try #require(factors[100])
        let pressedOut = try #require(factors[190])
        #expect(zoomedIn > 1.8, "the engine zoomed to \(zoomedIn)×")
        // Two presses out: half of where the lens was (or the widest), held.
        #expect(abs(pressedOut - max(1, zoomedIn / 2)) < 0.1, "from \(zoomedIn)× to \(pressedOut)×")
    }
}
