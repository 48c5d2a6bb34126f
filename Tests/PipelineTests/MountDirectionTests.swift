import Bench
import DockCore
import Foundation
import GroundTruth
import Motion
import Pipeline
import Rigs
import TestSupport
import Testing

/// A head mounted the other way round (the camera turns left when the head reads right), in
/// closed loop on the demo scene: unconfigured, the tracking notices within a second that the
/// head is running away from the person, stops the motors and says which option to flip;
/// configured, it tracks.
@Suite(.tags(.unit), .notInFastRuns) struct MountDirectionTests {
    /// Ten seconds of the demo, unpaced, faces only, the head's pan mounted inverted.
    var invertedPan: SessionConfiguration {
        var c = unpacedDemo(frames: 300)
        c.gimbalModel.mount = MountDirections(panInverted: true)
        return c
    }

    @Test func aHeadRunningAwayIsStoppedWithinASecond() throws {
        let summary = try Pipeline(simulating: invertedPan).run()
        let line = try #require(summary.runawayStop)
        #expect(line.hasPrefix("motors stopped: the head turned the camera away from the subject (pan "))
        #expect(line.hasSuffix("its pan runs the other way on this mount; start again with --pan-direction inverted"))
        #expect(summary.report().contains(line) && summary.finalCommand == Vector3D())
        // From the head's first turn to the last frame that found it moving: under a second.
        let trace = summary.trace
        let start = try #require(trace.first).yaw
        let firstTurn = try #require(trace.first { abs($0.yaw - start) > 0.01 }).time
        let moving = zip(trace, trace.dropFirst()).filter { abs($1.yaw - $0.yaw) > 1e-4 }
        let lastMove = try #require(moving.last).1.time
        #expect(lastMove - firstTurn < 1, "turned at \(firstTurn) s, still moving at \(lastMove) s")
        // It stopped well short of the head's hard stop, and stayed there.
        #expect(trace.allSatisfy { abs($0.yaw - start) < 0.5 } && trace.last!.time - lastMove > 5)
        #expect(trace.last!.commandYaw == 0)
    }

    @Test func theSameHeadConfiguredInvertedTracks() throws {
        var c = invertedPan
        c.mount = MountDirections(panInverted: true)
        let run = try Pipeline(simulating: c).runMeasured()
        #expect(run.summary.runawayStop == nil)
        let metrics = try #require(run.metrics)
        #expect(try #require(metrics.inViewShare) > 0.9)
        #expect(try #require(metrics.centeringErrors().median) < 5, "degrees")
    }
}
