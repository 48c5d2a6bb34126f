import BenchRunner
import DockCore
import Foundation
import Motion
import Pipeline
import TestSupport
import Testing

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
}
