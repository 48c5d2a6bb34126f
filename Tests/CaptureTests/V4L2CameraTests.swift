import CV4L2
import CameraSimulation
import Capture
import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.device)) struct V4L2CameraTests {
    var request: CaptureRequest {
        var r = CaptureRequest()
        r.size = PixelSize(width: 512, height: 512)
        r.stallTimeout = 0.6
        return r
    }

    @Test func streamsMJPEGWithStampsFromTheDriver() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        device.append(Array(repeating: .frame(jpeg), count: 5))
        var r = request
        r.decodeScale = .half
        let camera = try V4L2Camera(path: device.path, request: r, system: device)
        #expect(camera.format == .mjpeg && camera.captureSize == PixelSize(width: 512, height: 512))
        #expect(camera.size == PixelSize(width: 256, height: 256))
        for sequence in 0..<5 {
            let frame = try #require(try camera.nextFrame())
            #expect(frame.stamp.sequence == UInt64(sequence))
            #expect(abs(frame.stamp.time.seconds - (1000 + Double(sequence) / 30)) < 1e-5)
            #expect(frame.size == PixelSize(width: 256, height: 256))
        }
        #expect(camera.counters.delivered == 5 && camera.droppedFrames == 0)
        camera.close()
        #expect(device.openDescriptorCount == 0 && device.liveMappingCount == 0 && !device.isStreaming)
    }

    @Test func decodesYUYVWithoutChangingThePicture() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(CameraFixtures.yuyv(width: 64, height: 48))])
        var r = request
        r.size = PixelSize(width: 64, height: 48)
        r.pixelFormat = .gray
        let camera = try V4L2Camera(path: device.path, request: r, system: device)
        #expect(camera.format == .yuyv)
        let frame = try #require(try camera.nextFrame())
        #expect(frame.format == .gray && frame.size == PixelSize(width: 64, height: 48))
        #expect(frame.pixels[10 * 64 + 20] == 30 && frame.pixels[47 * 64 + 63] == 110)
    }

    /// A raw frame made small for detection keeps the camera's picture when asked, and a region
    /// of it comes converted from the driver's bytes at the scale asked.
    @Test func aShrunkYUYVFrameKeepsItsFullPictureForRegions() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(CameraFixtures.yuyv(width: 64, height: 48))])
        var r = request
        r.size = PixelSize(width: 64, height: 48)
        r.pixelFormat = .gray
        r.decodeScale = .half
        r.keepDetail = true
        let camera = try V4L2Camera(path: device.path, request: r, system: device)
        let frame = try #require(try camera.nextFrame())
        #expect(frame.size == PixelSize(width: 32, height: 24))
        let detail = try #require(frame.detail)
        #expect(detail.fullSize == PixelSize(width: 64, height: 48))
        // Luma is (x + y) in the fixture: the full-scale region starts at (10, 5) → 15.
        let full = try #require(detail.region(PixelRect(x: 10, y: 5, width: 8, height: 4), scale: 1, format: .gray))
        #expect(full.size == PixelSize(width: 8, height: 4) && full.pixels[0] == 15 && full.pixels[7] == 22)
        // At half scale, (5, 3) is the 2×2 block from (10, 6): luma 16, 17, 17, 18 → 17.
        let half = try #require(detail.region(PixelRect(x: 5, y: 3, width: 4, height: 2), scale: 2, format: .gray))
        #expect(half.size == PixelSize(width: 4, height: 2) && half.pixels[0] == 17)
        // The bottom-right corner is in reach; beyond it is not.
        #expect(detail.region(PixelRect(x: 24, y: 20, width: 8, height: 4), scale: 2, format: .bgr) != nil)
        #expect(detail.region(PixelRect(x: 30, y: 20, width: 8, height: 4), scale: 2, format: .bgr) == nil)
    }

    /// 64×48 YUYV frames of one flat luma level each, so a picture shows which frame it came from.
    static func flatFrames(_ levels: [UInt8]) -> [ScriptedVideoDevice.ScriptItem] {
        levels.map { level in
            .frame((0..<64 * 48).flatMap { _ in [level, 128] })
        }
    }

    var leasingRequest: CaptureRequest {
        var r = request
        r.size = PixelSize(width: 64, height: 48)
        r.pixelFormat = .gray
        r.decodeScale = .half
        r.keepDetail = true
        r.bufferCount = 6
        return r
    }

    static func fullLevel(_ frame: Frame?) -> UInt8? {
        frame?.detail?.region(PixelRect(x: 8, y: 8, width: 4, height: 4), scale: 1, format: .gray)?.pixels[5]
    }

    /// A raw frame's full picture is read in place from the driver's buffer, not copied: the frame
    /// leases that buffer, the driver fills the others meanwhile, and the buffer is queued again
    /// once the frame is gone.
    @Test func aRawFramesFullPictureIsLeasedFromTheDriversBuffer() throws {
        let device = CameraFixtures.webcam()
        device.append(Self.flatFrames([20, 30, 40, 50, 60, 70]))
        let camera = try V4L2Camera(path: device.path, request: leasingRequest, system: device)
        var first = try camera.nextFrame()
        #expect((first?.detail as? RawFrameDetail)?.isLeased == true && camera.leasedBufferCount == 1)
        for level: UInt8 in [30, 40, 50] {
            #expect(Self.fullLevel(try camera.nextFrame()) == level)
        }
        #expect(Self.fullLevel(first) == 20, "the driver never fills a leased buffer")
        first = nil
        let held = try camera.nextFrame()
        #expect(Self.fullLevel(held) == 60)
        #expect(device.queuedBufferCount == 5, "every buffer but the one just leased is back with the driver")
        #expect(camera.counters.detailCopies == 0)
        _ = held
    }

    /// Frames held longer than the camera's rhythm lease buffers only while two stay with the
    /// driver; later ones copy their picture, so capture never waits for a buffer.
    @Test func framesHeldLongCopyTheirPictureOnceTwoBuffersAreLeftToTheDriver() throws {
        let device = CameraFixtures.webcam()
        let levels: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        device.append(Self.flatFrames(levels))
        let camera = try V4L2Camera(path: device.path, request: leasingRequest, system: device)
        var frames: [Frame] = []
        for _ in levels { frames.append(try #require(try camera.nextFrame())) }
        #expect(frames.map { Self.fullLevel($0) } == levels)
        #expect(
            frames.map { ($0.detail as? RawFrameDetail)?.isLeased } == [true, true, true, true] + [
                false, false, false, false,
            ])
        #expect(camera.leasedBufferCount == 4 && camera.counters.detailCopies == 4)
    }

    /// Closing the camera while a frame still leases a buffer leaves that frame readable; the
    /// mappings go with the last such frame.
    @Test func aLeasedPictureOutlivesTheCameraAndIsUnmappedWithItsFrame() throws {
        let device = CameraFixtures.webcam()
        device.append(Self.flatFrames([90]))
        let camera = try V4L2Camera(path: device.path, request: leasingRequest, system: device)
        var frame = try camera.nextFrame()
        camera.close()
        #expect(camera.mappedBufferCount == 0 && device.openDescriptorCount == 0 && device.liveMappingCount == 6)
        #expect(Self.fullLevel(frame) == 90)
        frame = nil
        #expect(device.liveMappingCount == 0)
    }

    /// A reconnecting camera sums its connections' counters: every counter, so a new one cannot
    /// be left out of the sum.
    @Test func countersAddUpEveryField() {
        var one = CaptureCounters()
        (one.delivered, one.skippedForNewer, one.errorFrames, one.corruptFrames) = (1, 1, 1, 1)
        (one.sequenceGaps, one.ioErrors, one.detailCopies, one.thinned) = (1, 1, 1, 1)
        var sum = one
        sum.add(one)
        let fields = Mirror(reflecting: sum).children
        #expect(fields.count == 8 && fields.allSatisfy { $0.value as? Int == 2 })
    }

    @Test func errorFlaggedBuffersAreDroppedAndCounted() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        device.append([.frame(jpeg), .errorFrame(jpeg), .frame(jpeg)])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        let sequences = try [camera.nextFrame(), camera.nextFrame()].map { $0?.stamp.sequence }
        #expect(sequences == [0, 2])
        #expect(camera.counters.errorFrames == 1 && camera.droppedFrames == 1)
    }

    @Test func anErrorFlaggedBufferDrainedWithNewerOnesIsStillCountedAsAnError() throws {
        let device = CameraFixtures.webcam()
        device.framesPerPoll = 3
        let jpeg = try CameraFixtures.jpeg()
        device.append([.errorFrame(jpeg), .frame(jpeg), .frame(jpeg)])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        #expect(try camera.nextFrame()?.stamp.sequence == 2)
        #expect(camera.counters.errorFrames == 1 && camera.counters.skippedForNewer == 1)
    }

    @Test func corruptJPEGIsDroppedAndTheStreamGoesOn() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        device.append([.frame(Array(jpeg.prefix(jpeg.count / 3))), .frame(jpeg)])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        #expect(try camera.nextFrame()?.stamp.sequence == 1)
        #expect(camera.counters.corruptFrames == 1)
    }

    @Test func driverSequenceGapsAreCounted() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        device.append([.frame(jpeg), .lost(3), .frame(jpeg)])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        _ = try camera.nextFrame()
        #expect(try camera.nextFrame()?.stamp.sequence == 4)
        #expect(camera.counters.sequenceGaps == 3)
    }

    @Test func alwaysTheNewestFrame() throws {
        let device = CameraFixtures.webcam()
        device.framesPerPoll = 3
        let jpeg = try CameraFixtures.jpeg()
        device.append(Array(repeating: .frame(jpeg), count: 3))
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        #expect(try camera.nextFrame()?.stamp.sequence == 2)
        #expect(camera.counters.skippedForNewer == 2 && camera.counters.sequenceGaps == 0)
    }

    @Test func interruptedCallsAreRetried() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(try CameraFixtures.jpeg())])
        device.inject([.interrupted, .interrupted], into: CV4L2_VIDIOC_DQBUF)
        device.inject([.interrupted], into: CV4L2_VIDIOC_QUERYCAP)
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        #expect(try camera.nextFrame()?.stamp.sequence == 0)
    }

    @Test func unplugMidStreamIsReportedAsDisconnected() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(try CameraFixtures.jpeg()), .unplug])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        _ = try camera.nextFrame()
        #expect {
            try camera.nextFrame()
        } throws: { error in
            (error as? FrameSourceError)?.kind == .disconnected
        }
        camera.close()
        #expect(device.openDescriptorCount == 0 && device.liveMappingCount == 0)
    }

    @Test func enodevFromDQBUFIsADisconnectToo() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(try CameraFixtures.jpeg())])
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        device.inject([.noDevice], into: CV4L2_VIDIOC_DQBUF)
        #expect {
            try camera.nextFrame()
        } throws: { error in
            (error as? FrameSourceError)?.kind == .disconnected
        }
    }

    @Test func stalledStreamIsATimeout() throws {
        let device = CameraFixtures.webcam()
        let camera = try V4L2Camera(path: device.path, request: request, system: device)
        #expect {
            try camera.nextFrame()
        } throws: { error in
            (error as? FrameSourceError)?.kind == .timeout
        }
    }

    @Test func hundredUnplugCyclesLeakNothing() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        for _ in 0..<100 {
            device.replug()
            device.append([.frame(jpeg), .unplug])
            let camera = try V4L2Camera(path: device.path, request: request, system: device)
            _ = try camera.nextFrame()
            #expect(throws: FrameSourceError.self) { try camera.nextFrame() }
            camera.close()
            #expect(device.openDescriptorCount == 0 && device.liveMappingCount == 0)
        }
    }

    @Test func openFailuresSayWhatToDo() {
        let device = CameraFixtures.webcam()
        #expect {
            try V4L2Camera(path: "/dev/video7", system: device)
        } throws: { error in
            guard case .cannotOpen(let path, _)? = error as? CaptureError else { return false }
            return path == "/dev/video7"
        }
        let unusable = ScriptedVideoDevice(formats: [
            .init(FourCC("H264"), "H.264", compressed: true, sizes: [(1280, 720, [30])])
        ])
        #expect {
            try V4L2Camera(path: unusable.path, system: unusable)
        } throws: { error in
            (error as? CaptureError)?.description.contains("offers no format OpenDock can decode (offered: H264)")
                == true
        }
        #expect(unusable.openDescriptorCount == 0)
    }
}
