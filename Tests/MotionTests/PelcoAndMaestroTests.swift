import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct PelcoDCodecTests {
    @Test func messageBytesAndChecksum() {
        // Pan right at speed 0x20, address 1: FF 01 00 02 20 00 23.
        #expect(
            PelcoD.move(address: 1, panSpeed: 0x20, tiltSpeed: 0).bytes == [0xFF, 0x01, 0x00, 0x02, 0x20, 0x00, 0x23])
        #expect(PelcoD.move(address: 2, panSpeed: -5, tiltSpeed: -70, zoom: 1).bytes[3] == 0x04 | 0x08 | 0x20)
        #expect(PelcoD.move(address: 2, panSpeed: -5, tiltSpeed: -70).bytes[5] == 0x3F)
        #expect(PelcoD.goToPreset(address: 1, 5).bytes == [0xFF, 0x01, 0x00, 0x07, 0x00, 0x05, 0x0D])
    }

    @Test func decoderResyncsAfterNoiseAndBadChecksums() {
        var bad = PelcoD.stop(address: 1).bytes
        bad[6] &+= 1
        let good = PelcoD.Message(address: 1, command2: 0x59, data1: 0x46, data2: 0x50)
        var decoder = PelcoDDecoder()
        let messages = decoder.feed([0x12, 0x34] + bad + [0xFF] + good.bytes)
        #expect(messages == [good])
        #expect(decoder.badMessages >= 1)
        #expect(PelcoD.reply(good) == .pan(hundredthsOfDegree: 0x4650))
    }
}

@Suite(.serialized, .tags(.device)) struct PelcoAndMaestroBackendTests {
    func wait(_ seconds: Double, until condition: () -> Bool) -> Bool { waitFor(seconds: seconds, until: condition) }

    @Test func pelcoHeadMovesAnswersPositionAndPresets() throws {
        let link = try SerialHead.pelco(PelcoDHead(address: 3))
        let (head, backend) = (link.device, link.backend)
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        try backend.setVelocity(Vector3D(x: 0.2, y: -0.5, z: 0), at: clock.now)
        // −0.5 rad/s of a 60°/s head is step 30.08 → 30 of 63; 0.2 of 30°/s is step 24.
        #expect(wait(1) { abs(head.velocity.y - (-30.0 / 63 * head.maximumPanSpeed)) < 1e-9 })
        #expect(abs(head.velocity.x - 24.0 / 63 * head.maximumTiltSpeed) < 1e-9)
        #expect(
            wait(2) {
                Thread.sleep(forTimeInterval: 0.05)
                backend.pollFeedback(at: clock.now)
                return backend.motionState(at: clock.now).angularPositions.y < -0.2
            })
        let state = backend.motionState(at: clock.now)
        #expect(!state.isCommandedOnly && abs(state.angularPositions.y - head.pose.y) < 0.1)
        try backend.setPreset(4)
        #expect(wait(1) { head.presets[4] != nil })
        try backend.setVelocity(Vector3D(), at: clock.now)
        #expect(wait(1) { head.velocity == Vector3D() })
    }

    /// Reading the pose is a pure getter: only a poll puts a query on the wire.
    @Test func readingThePoseSendsNothingAndAPollAsks() throws {
        let link = try SerialHead.pelco()
        let (port, backend) = (link.port, link.backend)
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        Thread.sleep(forTimeInterval: 0.1)
        let before = port.receivedBytes.count
        for _ in 0..<10 {
            _ = backend.motionState(at: clock.now)
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(port.receivedBytes.count == before)
        backend.pollFeedback(at: clock.now)
        let query = PelcoD.queryPan(address: link.device.address).bytes
        #expect(wait(1) { Array(port.receivedBytes.dropFirst(before).prefix(query.count)) == query })
    }

    /// On a half-duplex bus answering 10 ms after each query, the host never talks while an
    /// answer is due: pan and tilt queries take turns with the answers, moves wait for the bus,
    /// and the pose still follows the head.
    @Test func pelcoQueriesAndMovesWaitForTheAnswerOnAHalfDuplexBus() throws {
        let link = try SerialHead.pelco { $0.halfDuplex = (messageLength: 7, answerDelay: 0.01) }
        let (head, port, backend) = (link.device, link.port, link.backend)
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        let start = clock.now
        while clock.now.seconds(since: start) < 1.5 {  // a 30 Hz control loop, the rate changing
            let rate = 0.3 * sin(clock.now.seconds(since: start) * 4)
            try backend.setVelocity(Vector3D(x: 0, y: rate, z: 0), at: clock.now)
            Thread.sleep(forTimeInterval: 1.0 / 30)
        }
        try backend.setVelocity(Vector3D(), at: clock.now)
        #expect(port.collisions == 0)
        let state = backend.motionState(at: clock.now)
        #expect(!state.isCommandedOnly && clock.now.seconds(since: state.time) < 0.3 * Sanitizer.slowdown, "\(state)")
        #expect(abs(state.angularPositions.y - head.pose.y) < 0.05, "\(state) vs \(head.pose)")
        #expect(wait(1) { head.velocity == Vector3D() })
        // A sanitized build may read an answer after the host has given up on it.
        if !Sanitizer.isActive { #expect(backend.unansweredQueries <= 1) }
    }

    @Test func pelcoHeadAtAnotherAddressIsRefused() throws {
        let head = PelcoDHead(address: 1)
        let port = try SerialPeer { head.handle($0) }
        let path = port.path
        #expect(throws: LinkError.self) {
            try PelcoDBackend(
                name: path, address: 2,
                open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 9600) })
        }
    }

    @Test func maestroIntegratesSpeedsIntoServoTargets() throws {
        let maestro = MaestroController()
        let port = try SerialPeer { maestro.handle($0) }
        let path = port.path
        let backend = try MaestroBackend(
            name: path,
            open: { () throws(LinkError) -> any ByteLink in try FileDescriptorLink.serial(path, baud: 115200) })
        defer { backend.close() }
        #expect(wait(1) { maestro.target(0) == 6000 && maestro.target(1) == 6000 })  // centred: 1500 µs
        var t = MonotonicInstant.zero
        for _ in 0...10 {
            try backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: t)
            t = t.advanced(bySeconds: 0.05)
        }
        // 0.5 rad/s for 0.5 s = 0.25 rad → 1500 + 0.25 × 600 = 1650 µs = 6600 quarter-µs.
        #expect(wait(1) { maestro.target(0) == 6600 })
        let state = backend.motionState(at: t.advanced(bySeconds: -0.05))
        #expect(state.isCommandedOnly && abs(state.angularPositions.y - 0.25) < 1e-9)
        #expect(backend.capabilities.hasPositionFeedback == false)
    }
}

/// The half-duplex turns on a manual clock.
@Suite(.tags(.unit)) struct PelcoDBusTurnsTests {
    let move1 = PelcoD.move(address: 1, panSpeed: 10, tiltSpeed: 0)
    let move2 = PelcoD.move(address: 1, panSpeed: 20, tiltSpeed: 0)
    let preset = PelcoD.setPreset(address: 1, 3)
    func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(seconds: seconds) }

    @Test func panThenTiltEachAfterTheOtherIsAnswered() {
        var bus = PelcoDBusTurns()
        #expect(bus.tick(at: at(0)) == [.query(.pan)])
        #expect(bus.tick(at: at(0.01)).isEmpty)  // the pan answer is due
        #expect(bus.answered(.pan, at: at(0.02)) == [.query(.tilt)])
        #expect(bus.answered(.tilt, at: at(0.04)).isEmpty)
        #expect(bus.tick(at: at(0.05)).isEmpty)  // the next poll 0.1 s after this one began
        #expect(bus.tick(at: at(0.1)) == [.query(.pan)])
    }

    @Test func commandsWaitForTheAnswerAndTheNewestMoveWins() {
        var bus = PelcoDBusTurns()
        #expect(bus.command(move1, isMove: true, at: at(0)) == [.command(move1)])  // the bus is free
        _ = bus.tick(at: at(0))
        #expect(bus.command(move1, isMove: true, at: at(0.005)).isEmpty)
        #expect(bus.command(preset, isMove: false, at: at(0.006)).isEmpty)
        #expect(bus.command(move2, isMove: true, at: at(0.007)).isEmpty)
        #expect(bus.answered(.pan, at: at(0.02)) == [.command(preset), .command(move2), .query(.tilt)])
    }

    @Test func anOverdueAnswerGivesTheBusBackAndALateOneIsIgnored() {
        var bus = PelcoDBusTurns()
        _ = bus.tick(at: at(0))
        #expect(bus.command(move1, isMove: true, at: at(0.05)).isEmpty)
        // 0.1 s without the pan answer: tilt is asked anyway, after the waiting move.
        #expect(bus.tick(at: at(0.1)) == [.command(move1), .query(.tilt)])
        #expect(bus.unanswered == 1)
        #expect(bus.answered(.pan, at: at(0.11)).isEmpty)  // too late: the bus waits for tilt
        #expect(bus.answered(.tilt, at: at(0.12)).isEmpty)
        #expect(bus.tick(at: at(0.2)) == [.query(.pan)])
    }
}
