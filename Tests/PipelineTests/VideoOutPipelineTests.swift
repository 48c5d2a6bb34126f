import CameraOutputs
import Capture
import Control
import DockCore
import Foundation
import Simulation
import TestSupport
import Testing

@testable import Pipeline
@testable import Rigs

@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct VideoOutPipelineTests {
    /// A fixed camera (no motors) on the demo scene, a person standing still, for 4 s.
    var fixedCameraOnTheDemo: SessionConfiguration {
        var c = SessionConfiguration()
        c.source = .demo
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.scene.script = .still(yaw: 0.1, pitch: 0, duration: 6)
        c.gimbal = .dryRun
        c.maximumFrames = 120
        return c
    }

    /// A fixed camera (no motors) on the demo scene with its virtual camera written out and
    /// digitally framed: every frame the capture thread delivers reaches the loopback whole,
    /// in order, and the picture shown zooms onto the person it follows.
    @Test func aFixedCameraIsFramedDigitallyOnTheVirtualCamera() throws {
        var c = fixedCameraOnTheDemo
        c.digitalFraming = CropFollower.Settings()
        let loopback = SimulatedLoopback()
        c.videoOut = VideoOutRequest(device: loopback.path)
        let pipeline = try Pipeline(simulating: c, videoOutSystem: loopback)
        let summary = try pipeline.run()
        let written = loopback.written
        let times = loopback.writeTimes
        let (count, replaced, failed) = try #require(summary.videoOutFrames)
        let size = pipeline.rig.camera.referenceDimensions
        // Placeholders fill the wait for the first frame while the detectors load.
        #expect(
            failed == 0 && count + summary.videoOutPlaceholders == times.count && count + replaced >= summary.frames)
        #expect(!written.isEmpty && written.allSatisfy { $0.bytes.count == size.width * size.height * 2 })
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(summary.timings.samples["capture→output"]?.count == count)
        // Zoomed in onto the person by the end, and still.
        let crop = try #require(pipeline.monitor.crop)
        #expect(crop.width < 0.9 && crop.width >= 0.5 - 1e-9)
        #expect(loopback.openDescriptorCount == 0)
    }

    /// `--zoom auto` on a camera with no zoom to drive falls back to zooming the virtual camera's
    /// picture digitally, and says so; without a virtual camera it says it stays off.
    @Test func autoZoomWithoutALensZoomsTheVideoOutDigitally() throws {
        var c = fixedCameraOnTheDemo
        c.zoom = .auto
        let plain = try Pipeline(simulating: c)
        #expect(
            plain.zoomNote?.hasSuffix("it stays off (with --video-out the picture there would zoom digitally)") == true)
        let loopback = SimulatedLoopback()
        c.videoOut = VideoOutRequest(device: loopback.path)
        let pipeline = try Pipeline(simulating: c, videoOutSystem: loopback)
        #expect(pipeline.zoomNote?.contains("the video out zooms digitally instead (up to 2.0×)") == true)
        _ = try pipeline.run()
        let crop = try #require(pipeline.monitor.crop)
        #expect(crop.width < 0.9 && crop.width >= 0.5 - 1e-9)
    }
}
