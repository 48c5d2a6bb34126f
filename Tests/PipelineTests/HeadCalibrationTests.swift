import Calibration
import DockCore
import Foundation
import GroundTruth
import Motion
import Options
import Pipeline
import Rigs
import TestSupport
import Testing

/// `dockctl calibrate` in closed loop: a simulated head with its pan mounted inverted, pan units
/// a quarter too large (the camera turns 0.8° per degree read), 150 ms of command latency and a
/// camera whose field of view nobody said, turned while watching a
/// street (a recording through the head's virtual camera: texture everywhere, people walking
/// through it); then the same head, configured as found, tracks the demo's person.
@Suite(.tags(.unit), .notInFastRuns) struct HeadCalibrationTests {
    var strangeHead: SessionConfiguration {
        var c = SessionConfiguration()
        // A street seen from a still camera, people walking through it: texture everywhere.
        c.source = .file(Fixtures.repositoryRoot + "/.cache/media/opencv/vtest.avi")
        c.viewSize = PixelSize(width: 640, height: 360)
        c.mediaDirectory = Fixtures.repositoryRoot + "/.cache/media"
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.bodyDetector = .none
        c.gimbalModel.mount = MountDirections(panInverted: true)
        c.gimbalModel.scales = AxisScales(pan: 0.8, tilt: 1)
        c.gimbalModel.latency = 0.15
        c.viewFieldOfView = 52
        return c
    }

    @Test func aStrangeHeadIsLearntAndThenTracks() throws {
        let rig = try CalibrationRig(strangeHead)
        let found = try HeadCalibrator(source: rig.source, device: rig.device, commandTime: rig.commandTime).run()
        let pan = try #require(found.pan)
        let tilt = try #require(found.tilt)
        #expect(pan.isInverted && !tilt.isInverted)
        #expect(abs(pan.scale / 0.8 - 1) < 0.03 && abs(tilt.scale - 1) < 0.03, "\(pan.scale), \(tilt.scale)")
        let truth = try #require(rig.simulatedFocalLength)
        #expect(abs(pan.focalLength / truth - 1) < 0.03, "focal length \(pan.focalLength) against \(truth)")
        #expect(abs(try #require(found.horizontalFieldOfView) - 52) < 1.5)
        #expect(abs(try #require(found.latency) - 0.15) < 0.015)
        // What it writes is dockd's configuration, and with it the same head tracks.
        let gimbal = try #require(found.configuration["gimbal"])
        #expect(gimbal["pan_direction"] as? String == "inverted" && gimbal["tilt_direction"] as? String == "normal")
        // The pan's units are written; the tilt's, within the measurement's spread of 1, are not.
        let panScale = try #require(gimbal["pan_scale"] as? Double)
        #expect(abs(panScale / 0.8 - 1) < 0.03 && gimbal["tilt_scale"] == nil)
        // The same head on the demo scene, whose people have ground truth.
        var c = strangeHead
        c.source = .demo
        c.viewSize = SessionConfiguration().viewSize
        c.realTime = false
        c.maximumFrames = 300
        // Configured as `dockctl calibrate --write FILE` leaves it, read back as dockd reads it.
        let file = Fixtures.temporaryDirectory("calibrated") + "/head.json"
        try JSONSerialization.data(withJSONObject: found.configuration).write(to: URL(fileURLWithPath: file))
        let written = try DockdOptions.parse(["--config", file, "--demo"]).configuration
        #expect(written.mount == MountDirections(panInverted: true) && written.scales.pan == panScale)
        (c.mount, c.scales, c.commandLatency) = (written.mount, written.scales, written.commandLatency)
        let run = try Pipeline(simulating: c).runMeasured()
        #expect(run.summary.runawayStop == nil)
        #expect(try #require(run.metrics?.inViewShare) > 0.9)
    }

    /// dockd's first start with a head nobody described learns it; later starts read it back.
    @Test func aHeadIsLearntAtFirstUseAndRememberedAfter() throws {
        let directory = Fixtures.temporaryDirectory("state")
        let state = FirstUseCalibration(directory: directory)
        var lines: [String] = []
        let learnt = state.prepare(strangeHead) { lines.append($0) }
        #expect(learnt.headDescribed && learnt.mount == MountDirections(panInverted: true), "\(lines)")
        #expect(abs(learnt.scales.pan / 0.8 - 1) < 0.03 && learnt.scales.tilt == 1)
        #expect(abs(try #require(learnt.commandLatency) - 0.15) < 0.015)
        let saved = try #require(lines.last)
        #expect(saved.hasPrefix("calibration: saved to \(directory)/heads/sim--") && saved.hasSuffix("vtest.avi.json"))
        // The next start: read back, nothing turned.
        var again: [String] = []
        let remembered = state.prepare(strangeHead) { again.append($0) }
        #expect(again.count == 1 && again[0].contains("learnt at an earlier start"), "\(again)")
        #expect(remembered.mount == learnt.mount && remembered.scales == learnt.scales)
        #expect(remembered.commandLatency == learnt.commandLatency)
    }

    /// Only a live camera with a real head nobody described is learnt at start, and only when
    /// asked (dockd asks by default).
    @Test func firstUseCalibrationAppliesToAnUndescribedRealHead() throws {
        let live = ["--camera", "/dev/video0", "--gimbal", "visca:/dev/ttyUSB0"]
        #expect(FirstUseCalibration.applies(to: try DockdOptions.parse(live).configuration))
        for described in [["--pan-direction", "normal"], ["--tilt-scale", "1.1"], ["--command-latency", "90"]] {
            #expect(!FirstUseCalibration.applies(to: try DockdOptions.parse(live + described).configuration))
        }
        #expect(!FirstUseCalibration.applies(to: try DockdOptions.parse(live + ["--calibrate", "off"]).configuration))
        #expect(!FirstUseCalibration.applies(to: try DockdOptions.parse(["--demo"]).configuration))
        #expect(throws: UsageError.self) { try DockdOptions.parse(live + ["--calibrate", "always"]) }
        #expect(
            FirstUseCalibration.defaultDirectory(environment: ["STATE_DIRECTORY": "/var/lib/opendock", "HOME": "/h"])
                == "/var/lib/opendock")
        #expect(FirstUseCalibration.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/opendock")
    }
}
