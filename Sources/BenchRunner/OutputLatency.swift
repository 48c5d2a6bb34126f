import Bench
import CameraOutputs
import Control
import DockCore
import Foundation
import Pipeline
import Rigs
import Simulation

/// How long a captured frame takes to reach the virtual camera: the demo scene in real time on a
/// fixed 1280×720 camera at 30 fps, digitally framed, written to a simulated v4l2loopback (this
/// machine's kernel has none; the driver's own copy of a frame is the part not measured).
public struct OutputLatency: Sendable {
    public var latency: Percentiles
    public var written: Int
    public var replaced: Int
    public var seconds: Double

    static func measure(base: SessionConfiguration, seconds: Double = 20) throws(SessionError) -> OutputLatency {
        var c = base
        c.source = .demo
        c.scene = SceneConfiguration()
        c.scene.loops = true
        c.gimbal = .dryRun
        c.viewSize = PixelSize(width: 1280, height: 720)
        c.viewFieldOfView = SceneRun.fixedCameraFieldOfView
        c.realTime = true
        c.keepFrameRecords = false
        c.maximumDuration = seconds
        c.digitalFraming = c.digitalFraming ?? CropFollower.Settings()
        let loopback = SimulatedLoopback(keptFrames: 1)
        c.videoOut = VideoOutRequest(device: loopback.path)
        let summary = try Pipeline(simulating: c, videoOutSystem: loopback).run()
        let (written, replaced, _) = summary.videoOutFrames ?? (0, 0, 0)
        return OutputLatency(
            latency: summary.timings.percentiles(.captureToOutput), written: written, replaced: replaced,
            seconds: summary.wallSeconds)
    }

    public var text: String {
        String(
            format:
                "output latency (capture → written to the virtual camera; 1280x720 at 30 fps, digital framing, real time, %.0f s): p50 %.1f ms, p99 %.1f ms; %d frames written, %d replaced by a newer one",
            seconds, latency.median ?? .nan, latency.p99 ?? .nan, written, replaced)
    }
}
