import CameraSimulation
import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

/// A perception slower than the camera: frames it will not take are left undecoded and
/// counted, at the camera and for any other source.
@Suite(.tags(.device)) struct ThinningTests {
    @Test func aCameraThinnedToHalfItsRateDeliversEveryOtherFrameAndCountsTheRest() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 10))
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        request.stallTimeout = 0.6
        request.deliveredRate = 15
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        defer { camera.close() }
        let sequences = try (0..<5).map { _ in try #require(try camera.nextFrame()).stamp.sequence }
        #expect(sequences == [0, 2, 4, 6, 8])
        #expect(camera.counters.thinned == 4 && camera.counters.delivered == 5)
        #expect(camera.counts.thinned == 4 && camera.counts.total == 4)
    }

    @Test func anySourceThinsTheSameWayWhateverTheJitter() throws {
        final class Ticking: FrameSource {
            var times: [Double]
            init(_ times: [Double]) { self.times = times }
            var summary: String { "ticks" }
            var size: PixelSize { PixelSize(width: 4, height: 4) }
            var nominalFrameRate: Double { 30 }
            var droppedFrames: Int { 0 }
            func nextFrame() throws(FrameSourceError) -> Frame? {
                guard !times.isEmpty else { return nil }
                let t = times.removeFirst()
                return Frame(
                    stamp: FrameStamp(sequence: 0, time: MonotonicInstant(seconds: t)), width: 4, height: 4,
                    format: .bgr)
            }
        }
        // 30 fps with ±5 ms of jitter: every other frame, none lost twice in a row.
        let jitter = [0.0, 0.004, -0.005, 0.002, 0.005, -0.003, 0.0, -0.004, 0.003, 0.001]
        let times = jitter.enumerated().map { Double($0.offset) / 30 + $0.element }
        let thinned = ThinnedSource(Ticking(times), rate: 15)
        var kept: [Double] = []
        while let frame = try thinned.nextFrame() { kept.append(frame.stamp.time.seconds) }
        #expect(kept.count == 5 && thinned.counts.thinned == 5)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $1 - $0 > 0.05 && $1 - $0 < 0.08 })
    }

    @Test func aRecordingPlaysAsAWebcamInRealTimeAndLoops() throws {
        let path = Fixtures.temporaryDirectory("recorded-webcam") + "/clip.avi"
        let writer = try MJPEGAVIWriter(path: path, size: PixelSize(width: 64, height: 48), fps: 30)
        for i in 0..<6 {
            try writer.write(
                Frame(stamp: FrameStamp(sequence: UInt64(i), time: .zero), width: 64, height: 48, format: .bgr))
        }
        writer.close()
        let webcam = try RecordedWebcam(recording: path)
        defer { webcam.stop() }
        var request = CaptureRequest()
        request.size = webcam.size
        let camera = try V4L2Camera(path: webcam.device.path, request: request, system: webcam.device)
        defer { camera.close() }
        var stamps: [Double] = []
        for _ in 0..<15 { stamps.append(try #require(try camera.nextFrame()).stamp.time.seconds) }
        // 15 frames of a 6-frame clip: it looped; paced at the camera's rate, never faster.
        #expect(webcam.framesFed >= 15 && camera.counters.delivered == 15)
        #expect(stamps.last! - stamps.first! >= 14 / 30.0 - 0.005)
        #expect(camera.captureSize == PixelSize(width: 64, height: 48) && camera.format == .mjpeg)
    }
}
