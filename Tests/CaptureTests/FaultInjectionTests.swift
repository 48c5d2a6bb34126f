import CV4L2
import Capture
import DockCore
import Foundation
import Motion
import Perception
import TestSupport
import Testing

/// Faults injected 100 times each, checking the documented end state and that nothing leaks:
/// file descriptors and threads of the whole process are counted before and after. Run alone
/// (Scripts/test runs this suite in a process of its own) so other tests do not disturb the
/// counts.
@Suite(.serialized, .tags(.device), .notInFastRuns) struct FaultInjectionTests {
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    /// Counts after letting finished threads wind down.
    static func settled() -> (fds: Int, threads: Int) {
        Thread.sleep(forTimeInterval: 0.4)
        return (openDescriptors(), threads())
    }

    @Test func serialLinkClosedAndReopened100Times() throws {
        let peer = try SimpleBGCPeer()
        let path = peer.path
        let events = Protected<[LinkEvent]>([])
        let backend = try SimpleBGCBackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in
                try FileDescriptorLink.serial(path, baud: 115200)
            }, onEvent: { event in events.withLock { $0.append(event) } })
        let before = Self.settled()
        for cycle in 0..<100 {
            peer.port.unplug()
            #expect(waitFor(seconds: 2) { !backend.isConnected }, "cycle \(cycle)")
            try peer.port.plug()
            #expect(waitFor(seconds: 2) { backend.isConnected }, "cycle \(cycle)")
        }
        try backend.setVelocity(Vector3D(x: 0, y: 0.1, z: 0), at: SystemMonotonicClock().now)
        #expect(waitFor(seconds: 1) { abs(peer.velocity.y - 0.1) < 0.01 })
        let after = Self.settled()
        #expect(events.withLock { $0.count } == 200)
        #expect(after.fds == before.fds, "descriptors \(before.fds) → \(after.fds)")
        #expect(after.threads <= before.threads, "threads \(before.threads) → \(after.threads)")
        backend.close()
    }

    /// 100 answers corrupted or cut short on the wire: each is rejected by the decoder, the
    /// stream resyncs (a good pose report follows), commands keep arriving, nothing leaks.
    @Test func serialBytesCorruptedOrDropped100Times() throws {
        let peer = try SimpleBGCPeer()
        let path = peer.path
        let backend = try SimpleBGCBackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in
                try FileDescriptorLink.serial(path, baud: 115200)
            })
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        func poseTime() -> MonotonicInstant {
            backend.pollFeedback(at: clock.now)
            return backend.motionState(at: clock.now).time
        }
        #expect(
            waitFor(seconds: 2) {
                backend.pollFeedback(at: clock.now)
                return !backend.motionState(at: clock.now).isCommandedOnly
            })
        let before = Self.settled()
        for cycle in 0..<100 {
            let rejected = backend.decoderRejections
            if cycle % 2 == 0 { peer.port.corruptNext = 1 } else { peer.port.dropEvery = 5 }
            #expect(
                waitFor(seconds: 2) {
                    _ = poseTime()  // asks for a report every 50 ms: the answers are what gets damaged
                    let now = backend.decoderRejections
                    return now.badFrames > rejected.badFrames || now.skippedBytes > rejected.skippedBytes
                }, "cycle \(cycle): nothing rejected")
            peer.port.dropEvery = 0
            let damaged = clock.now
            #expect(waitFor(seconds: 2) { poseTime() > damaged }, "cycle \(cycle): no good report after the damage")
            let speed = Double(cycle % 5) * 0.1
            try backend.setVelocity(Vector3D(x: 0, y: speed, z: 0), at: clock.now)
            #expect(waitFor(seconds: 1) { abs(peer.velocity.y - speed) < 0.01 }, "cycle \(cycle): command lost")
        }
        try backend.setVelocity(Vector3D(), at: clock.now)
        #expect(backend.deviceErrors == 0)
        let after = Self.settled()
        #expect(after.fds == before.fds && after.threads <= before.threads)
        print(
            "serial damage: \(backend.decoderRejections.badFrames) frames rejected, \(backend.decoderRejections.skippedBytes) bytes skipped over 100 cycles"
        )
    }

    @Test func backendsOpenedAndClosed100TimesLeaveNothing() throws {
        let peer = try SimpleBGCPeer()
        let path = peer.path
        let open: @Sendable () throws(LinkError) -> any ByteLink = { () throws(LinkError) -> any ByteLink in
            try FileDescriptorLink.serial(path, baud: 115200)
        }
        _ = try SimpleBGCBackend(name: path, open: open).close()  // warm up the runtime's own threads
        let before = Self.settled()
        for _ in 0..<100 { try SimpleBGCBackend(name: path, open: open).close() }
        let after = Self.settled()
        #expect(after.fds == before.fds, "descriptors \(before.fds) → \(after.fds)")
        #expect(after.threads <= before.threads, "threads \(before.threads) → \(after.threads)")
    }

    @Test func cameraUnpluggedAndReplugged100TimesWhileStreaming() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        device.append([.frame(jpeg)])
        let camera = try ReconnectingCamera(
            path: device.stableName, request: request, system: device, retryInterval: 0.001)
        _ = try camera.nextFrame()
        let before = Self.settled()
        for cycle in 0..<100 {
            device.append([.unplug])
            // Back 20 ms after the camera saw it go, with a frame for the new connection.
            device.replug(after: 0.02, then: [.frame(jpeg)])
            #expect(try camera.nextFrame() != nil, "cycle \(cycle)")
            #expect(device.openDescriptorCount == 1 && device.liveMappingCount == 4, "cycle \(cycle)")
        }
        #expect(camera.disconnects == 100 && camera.reconnects == 100)
        let after = Self.settled()
        #expect(after.fds == before.fds && after.threads <= before.threads)
    }

    @Test func ioErrorsAndStallsMidStream100Times() throws {
        let device = CameraFixtures.webcam()
        let jpeg = try CameraFixtures.jpeg()
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        request.stallTimeout = 0.2
        device.append([.frame(jpeg)])
        let camera = try ReconnectingCamera(path: device.path, request: request, system: device, retryInterval: 0.001)
        _ = try camera.nextFrame()
        for cycle in 0..<100 {
            // EIO on a dequeue is a temporary driver problem: counted, the stream goes on.
            device.inject([.io], into: CV4L2_VIDIOC_DQBUF)
            device.append([.frame(jpeg), .frame(jpeg)])
            #expect(try camera.nextFrame() != nil, "cycle \(cycle)")
            if cycle % 10 == 0 {
                // A stall (no frames for the timeout) reopens the camera.
                let reconnects = camera.reconnects
                device.append([.frame(jpeg)], afterOpensReach: device.opens + 1)
                #expect(try camera.nextFrame() != nil)
                #expect(camera.reconnects == reconnects + 1)
            }
            _ = device.liveMappingCount
        }
        #expect(camera.counters.ioErrors == 100)
        #expect(device.openDescriptorCount == 1)
    }

    @Test func brokenModel100TimesFallsBackEveryTime() throws {
        let dir = Fixtures.temporaryDirectory("brokenmodel")
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: dir + "/face_detection_yunet_2022mar.onnx"))
        let registry = ModelRegistry(searchDirectories: [dir])
        _ = try DetectorFactory.makeFaceDetector(.yunet, registry: registry)
        let before = Self.settled()
        for _ in 0..<100 {
            let built = try DetectorFactory.makeFaceDetector(.yunet, registry: registry)
            #expect(built.detector.name == "haar" && built.fallbackReason != nil)
        }
        let after = Self.settled()
        #expect(after.fds == before.fds && after.threads <= before.threads)
    }
}
