import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct SimpleBGCCodecTests {
    @Test(arguments: [SimpleBGC.Version.v1, .v2])
    func framesRoundTrip(_ version: SimpleBGC.Version) {
        let frame = SimpleBGC.speedControl(pitchDegreesPerSecond: -10, yawDegreesPerSecond: 25)
        var decoder = SimpleBGCDecoder(version: version)
        #expect(decoder.feed(SimpleBGC.encode(frame, version: version)) == [frame])
    }

    @Test func knownBytesOfAV1Frame() {
        // CMD_MOTORS_ON with no payload: '>' 'M' 0 ('M'+0) 0.
        #expect(SimpleBGC.encode(.init(command: 77, payload: []), version: .v1) == [0x3E, 0x4D, 0x00, 0x4D, 0x00])
        #expect(
            SimpleBGC.encode(.init(command: 67, payload: [1, 2, 3]), version: .v1) == [0x3E, 67, 3, 70, 1, 2, 3, 6])
    }

    @Test func speedUnitsAndLayout() {
        let frame = SimpleBGC.speedControl(pitchDegreesPerSecond: 0, yawDegreesPerSecond: 12.20740379)
        #expect(frame.command == 67 && frame.payload.count == 15)
        #expect(Array(frame.payload[0..<3]) == [0, 1, 1])
        #expect(frame.payload[11] == 100 && frame.payload[12] == 0)  // 100 units of 0.122 °/s
    }

    @Test func garbageIsSkippedAndTheStreamResyncs() {
        let good = SimpleBGC.encode(.init(command: 23, payload: Array(0..<63)))
        var corrupted = good
        corrupted[10] ^= 0xFF  // wrong CRC
        var truncated = SimpleBGC.encode(.init(command: 86, payload: [1, 2]))
        truncated.removeLast(3)  // cut short, then more data
        var decoder = SimpleBGCDecoder()
        let stream: [UInt8] = Array("noise$$$".utf8) + corrupted + truncated + good + [0x24, 0x01]
        let frames = decoder.feed(stream)
        #expect(frames.count == 1 && frames[0].command == 23 && frames[0].payload == Array(0..<63))
        #expect(decoder.badFrames >= 1 && decoder.skippedBytes > 8)
        // Byte at a time works as well.
        var slow = SimpleBGCDecoder()
        #expect(good.flatMap { slow.feed([$0]) }.count == 1)
    }

    @Test func wrongHeaderChecksumIsNotAFrame() {
        var frame = SimpleBGC.encode(.init(command: 67, payload: [9]))
        frame[3] &+= 1
        var decoder = SimpleBGCDecoder()
        #expect(decoder.feed(frame).isEmpty && decoder.badFrames == 1)
    }
}

@Suite(.serialized, .tags(.device)) struct SimpleBGCBackendTests {
    func connect(_ peer: SimpleBGCPeer, onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }) throws
        -> SimpleBGCBackend
    {
        let path = peer.path
        return try SimpleBGCBackend(
            name: path, deviceTimeout: 0.3,
            open: { () throws(LinkError) -> any ByteLink in
                try FileDescriptorLink.serial(path, baud: 115200)
            }, onEvent: onEvent)
    }

    func wait(_ seconds: Double, until condition: () -> Bool) -> Bool { waitFor(seconds: seconds, until: condition) }

    @Test func handshakeSpeedControlAndFeedbackOverAPty() throws {
        let peer = try SimpleBGCPeer()
        let backend = try connect(peer)
        defer { backend.close() }
        #expect(wait(1) { peer.timeoutMilliseconds == 300 })
        let clock = SystemMonotonicClock()
        try backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: clock.now)
        #expect(wait(1) { abs(peer.velocity.y - 0.5) < 0.01 })
        // Keep commanding (the device-side timeout is 300 ms) and watch the angles come back.
        #expect(
            wait(2) {
                try? backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: clock.now)
                Thread.sleep(forTimeInterval: 0.02)
                return backend.motionState(at: clock.now).angularPositions.y > 0.3
            })
        let state = backend.motionState(at: clock.now)
        #expect(!state.isCommandedOnly && abs(state.angularPositions.y - peer.pose.y) < 0.05)
        #expect(backend.batteryVolts == 12.34 && backend.confirmations > 0)
    }

    @Test func deviceSideTimeoutStopsTheGimbalWhenTheHostGoesSilent() throws {
        let peer = try SimpleBGCPeer()
        let backend = try connect(peer)
        defer { backend.close() }
        #expect(wait(1) { peer.timeoutMilliseconds == 300 })
        try backend.setVelocity(Vector3D(x: 0, y: 1, z: 0), at: SystemMonotonicClock().now)
        #expect(wait(1) { peer.velocity.y > 0.9 })
        // The host says nothing more: within the 300 ms timeout (plus braking) the gimbal stops.
        #expect(wait(1) { peer.velocity.y == 0 })
    }

    @Test func corruptAndDroppedAnswersAreSkippedNotActedOn() throws {
        let peer = try SimpleBGCPeer()
        let backend = try connect(peer)
        defer { backend.close() }
        peer.port.corruptNext = 3
        peer.port.dropEvery = 7
        let clock = SystemMonotonicClock()
        for _ in 0..<20 {
            backend.pollFeedback(at: clock.now)
            Thread.sleep(forTimeInterval: 0.06)
        }
        #expect(backend.decoderRejections.badFrames + backend.decoderRejections.skippedBytes > 0)
        #expect(backend.deviceErrors == 0)
    }

    @Test func silentDeviceIsRefusedAtConnect() throws {
        let peer = try SimpleBGCPeer()
        peer.port.silent = true
        #expect {
            try connect(peer)
        } throws: { error in
            (error as? LinkError)?.description.contains("no answer from") == true
        }
    }

    @Test func unpluggedLinkIsReportedAndReopened() throws {
        let peer = try SimpleBGCPeer()
        let events = Protected<[LinkEvent]>([])
        let backend = try connect(peer) { event in events.withLock { $0.append(event) } }
        defer { backend.close() }
        peer.port.unplug()
        #expect(wait(1) { !backend.isConnected })
        #expect(throws: (any Error).self) { try backend.setVelocity(Vector3D(), at: SystemMonotonicClock().now) }
        try peer.port.plug()
        #expect(wait(2) { backend.isConnected })
        #expect(events.withLock { $0.count } == 2)
        try backend.setVelocity(Vector3D(x: 0, y: 0.2, z: 0), at: SystemMonotonicClock().now)
        #expect(wait(1) { abs(peer.velocity.y - 0.2) < 0.01 })
    }
}

@Suite(.serialized, .tags(.device)) struct SimpleBGCMoreTests {
    @Test func angleModeLayout() {
        let frame = SimpleBGC.angleControl(pitchDegrees: -10, yawDegrees: 90, speedDegreesPerSecond: 30)
        #expect(Array(frame.payload[0..<3]) == [0, 2, 2])
        // yaw angle 90° = 4096 units at bytes 13–14; speed 30 °/s = 246 units at bytes 11–12.
        #expect(frame.payload[13] == 0x00 && frame.payload[14] == 0x10)
        #expect(frame.payload[11] == 246 && frame.payload[12] == 0)
    }

    @Test func unknownCommandGetsAnErrorReplyThatIsCounted() throws {
        let peer = try SimpleBGCPeer()
        let path = peer.path
        let backend = try SimpleBGCBackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 115200) })
        defer { backend.close() }
        try backend.send(.init(command: 200, payload: [1, 2, 3]))
        #expect(waitFor(seconds: 1) { backend.deviceErrors == 1 })
    }
}
