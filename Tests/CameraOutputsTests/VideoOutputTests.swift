import CV4L2
import CameraOutputs
import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@Suite(.tags(.unit)) struct VideoOutputTests {
    static let size = PixelSize(width: 64, height: 36)

    static func frame(_ sequence: UInt64, size: PixelSize = size, fill: (Int, Int) -> [UInt8]) -> Frame {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(size.width * size.height * 3)
        for y in 0..<size.height { for x in 0..<size.width { pixels += fill(x, y) } }
        return Frame(
            stamp: FrameStamp(sequence: sequence, time: SystemMonotonicClock().now), width: size.width,
            height: size.height, format: .bgr, pixels: pixels)
    }

    @Test func aLoopbackIsSetToYUYVAtTheSizeAndToldTheRate() throws {
        let device = SimulatedLoopback()
        let output = try V4L2VideoOutput(path: device.path, size: Self.size, frameRate: 30, system: device)
        let format = try #require(device.outputFormat)
        #expect(format.fourcc == FourCC("YUYV") && format.width == 64 && format.height == 36)
        let interval = try #require(device.frameInterval)
        #expect(Double(interval.0) / Double(interval.1) == 1.0 / 30)
        #expect(output.summary.contains("OpenDock camera") && output.frameLength == 64 * 36 * 2)
        output.close()
        #expect(device.openDescriptorCount == 0)
    }

    @Test func badDevicesAreRefusedInOneLineThatSaysWhatToDo() {
        let device = SimulatedLoopback()
        func refusal(_ path: String, size: PixelSize = Self.size) -> VideoOutputError? {
            do {
                _ = try V4L2VideoOutput(path: path, size: size, frameRate: 30, system: device)
                return nil
            } catch { return error }
        }
        #expect(refusal("/dev/video7") == .noSuchDevice(path: "/dev/video7"))
        #expect(
            refusal(device.path, size: PixelSize(width: 63, height: 36)) == .oddWidth(PixelSize(width: 63, height: 36)))
        device.driver = "vivid"
        device.card = "vivid"
        let notLoopback = refusal(device.path)
        #expect(notLoopback == .notALoopback(path: device.path, driver: "vivid", card: "vivid"))
        #expect(device.openDescriptorCount == 0)
        device.driver = "v4l2 loopback"
        device.lockedFormat = (FourCC("MJPG"), 1280, 720)
        #expect(refusal(device.path) == .formatRefused(path: device.path, asked: "YUYV 64x36", got: "MJPG 1280x720"))
        for error in [notLoopback, refusal("/dev/video7"), refusal(device.path)].compactMap({ $0 }) {
            #expect(!error.description.contains("\n") && error.description.hasPrefix("--video-out"))
        }
        #expect(notLoopback?.description.contains("modprobe v4l2loopback") == true)
    }

    @Test func colorsArePackedAsVideoRangeBT601() throws {
        // White, black, red, green, blue: Y, Cb, Cr as the standard gives them (±1 for rounding).
        let expected: [([UInt8], [Int])] = [
            ([255, 255, 255], [235, 128, 128]), ([0, 0, 0], [16, 128, 128]), ([0, 0, 255], [81, 90, 240]),
            ([0, 255, 0], [145, 54, 34]), ([255, 0, 0], [41, 240, 110]),
        ]
        for (bgr, yuv) in expected {
            let packed = try Self.frame(0, size: PixelSize(width: 2, height: 1)) { _, _ in bgr }.packedYUYV()
            let got = [Int(packed[0]), Int(packed[1]), Int(packed[3])]
            #expect(zip(got, yuv).allSatisfy { abs($0 - $1) <= 1 }, "\(bgr) gave \(got)")
            #expect(packed[0] == packed[2])
        }
    }

    @Test func theSinkWritesEachFrameAndShowsTheCropItIsGiven() throws {
        let device = SimulatedLoopback()
        let output = try V4L2VideoOutput(path: device.path, size: Self.size, frameRate: 30, system: device)
        let sink = VideoOutputSink(output: output, clock: SystemMonotonicClock()) { _ in }
        // Black on the left half, white on the right.
        let halves = { (x: Int, _: Int) -> [UInt8] in x < 32 ? [0, 0, 0] : [255, 255, 255] }
        sink.post(Self.frame(1, fill: halves))
        while sink.current.written < 1 { Thread.sleep(forTimeInterval: 0.001) }
        sink.show(NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1))
        sink.post(Self.frame(2, fill: halves))
        sink.finish()
        let frames = device.written
        #expect(frames.count == 2 && frames.allSatisfy { $0.bytes.count == 64 * 36 * 2 })
        let lumas = frames.map { frame in stride(from: 0, to: frame.bytes.count, by: 2).map { frame.bytes[$0] } }
        // The whole picture: half dark, half light; the crop of the right half: all white.
        #expect(lumas[0].filter { $0 < 30 }.count == 32 * 36 && lumas[0].filter { $0 > 225 }.count == 32 * 36)
        #expect(lumas[1].allSatisfy { $0 > 225 })
        #expect(sink.current.latencies.count == 2 && sink.current.latencies.allSatisfy { $0 >= 0 && $0 < 10_000 })
        #expect(device.openDescriptorCount == 0)
    }

    /// While no frame comes (an unplugged camera), readers keep getting a picture that says so.
    @Test func aPlaceholderIsWrittenWhileNoFrameComes() throws {
        let device = SimulatedLoopback(keptFrames: 100)
        let output = try V4L2VideoOutput(path: device.path, size: Self.size, frameRate: 30, system: device)
        let sink = VideoOutputSink(
            output: output, clock: SystemMonotonicClock(), placeholderAfter: 0.2, placeholderInterval: 0.05
        ) { _ in }
        sink.post(Self.frame(1) { _, _ in [200, 200, 200] })
        while sink.current.written < 1 { Thread.sleep(forTimeInterval: 0.001) }
        // Nothing for a while: no placeholder at first, then several.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(sink.current.placeholders == 0)
        Thread.sleep(forTimeInterval: 0.5)
        let during = sink.current.placeholders
        #expect(during >= 3, "\(during) placeholders")
        // Frames again: placeholders stop.
        sink.post(Self.frame(2) { _, _ in [200, 200, 200] })
        while sink.current.written < 2 { Thread.sleep(forTimeInterval: 0.001) }
        let afterFrames = sink.current.placeholders
        sink.finish()
        #expect(sink.current.placeholders == afterFrames && sink.current.written == 2)
        let frames = device.written
        #expect(frames.count == 2 + afterFrames && frames.allSatisfy { $0.bytes.count == 64 * 36 * 2 })
        // A placeholder: dark grey with light text on it, unlike the light frames around it.
        let luma = stride(from: 0, to: frames[1].bytes.count, by: 2).map { frames[1].bytes[$0] }
        #expect(luma.filter { $0 < 60 }.count > luma.count * 3 / 4 && luma.contains { $0 > 150 })
    }

    @Test func aFailingWriteIsSaidOnceCountedAndTheSinkGoesOn() throws {
        let device = SimulatedLoopback()
        let output = try V4L2VideoOutput(path: device.path, size: Self.size, frameRate: 30, system: device)
        let said = Protected<[String]>([])
        let sink = VideoOutputSink(output: output, clock: SystemMonotonicClock()) { line in
            said.withLock { $0.append(line) }
        }
        device.failingWrites = .noDevice
        for i in 0..<3 {
            sink.post(Self.frame(UInt64(i)) { _, _ in [90, 90, 90] })
            while sink.current.failed < i + 1 { Thread.sleep(forTimeInterval: 0.001) }
        }
        device.failingWrites = nil
        sink.post(Self.frame(3) { _, _ in [90, 90, 90] })
        sink.finish()
        #expect(sink.current.failed == 3 && sink.current.written == 1)
        let lines = said.withLock { $0 }
        #expect(lines.count == 1 && lines[0].contains("/dev/video9") && lines[0].contains("tracking goes on"))
    }
}
