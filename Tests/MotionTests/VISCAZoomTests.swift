import DockCore
import Foundation
import Motion
import TestSupport
import Testing

@Suite(.tags(.unit)) struct VISCAZoomCodecTests {
    @Test func zoomDirectAndTheZoomInquiryAsSonyWritesThem() {
        // 8x 01 04 47 0p 0q 0r 0s FF, and 8x 09 04 47 FF.
        #expect(VISCA.zoomDirect(position: 0x2A5C) == [0x81, 0x01, 0x04, 0x47, 0x02, 0x0A, 0x05, 0x0C, 0xFF])
        #expect(VISCA.zoomDirect(address: 2, position: 0) == [0x82, 0x01, 0x04, 0x47, 0, 0, 0, 0, 0xFF])
        #expect(VISCA.zoomPositionInquiry() == [0x81, 0x09, 0x04, 0x47, 0xFF])
        #expect(VISCA.reply([0x90, 0x50, 0x04, 0x00, 0x00, 0x00, 0xFF]) == .inquiry([0x04, 0, 0, 0]))
    }

    @Test func positionsAndFactorsEvenInLogTerms() {
        let model = VISCAModel()  // 12× at 0x4000
        #expect(model.zoomFactor(position: 0) == 1)
        #expect(abs(model.zoomFactor(position: 0x4000) - 12) < 1e-9)
        #expect(abs(model.zoomFactor(position: 0x2000) - 12.0.squareRoot()) < 1e-9)
        #expect(model.zoomPosition(factor: 12.0.squareRoot()) == 0x2000)
        #expect(model.zoomPosition(factor: 0.5) == 0 && model.zoomPosition(factor: 40) == 0x4000)
        for factor in stride(from: 1.0, through: 12, by: 0.7) {
            #expect(abs(model.zoomFactor(position: model.zoomPosition(factor: factor)) / factor - 1) < 1e-3)
        }
    }
}

@Suite(.serialized, .tags(.device)) struct VISCAZoomDriveTests {
    @Test func theFactorFollowsTheLensTheCameraReportsNotTheCommand() throws {
        let head = try SerialHead.visca(VISCACamera(zoomPosition: 0))
        let (camera, backend) = (head.device, head.backend)
        defer { backend.close() }
        let clock = SystemMonotonicClock()
        let zoom = try #require(backend.zoomDrive())
        #expect(zoom.range == 1...12 && zoom.factor(at: clock.now) == 1)
        try zoom.zoom(to: 3, at: clock.now)
        #expect(waitFor(seconds: 1) { camera.zoomDirectCommands == [VISCAModel().zoomPosition(factor: 3)] })
        // The lens takes its time (the whole range in 2.5 s): soon after, it is on its way.
        var seen: [Double] = []
        let reached = waitFor(seconds: 3) {
            Thread.sleep(forTimeInterval: 0.02)
            backend.pollFeedback(at: clock.now)
            seen.append(zoom.factor(at: clock.now))
            return abs(seen.last! - 3) < 0.01
        }
        #expect(reached, "\(seen.suffix(3))")
        #expect(seen.contains { $0 > 1.2 && $0 < 2.7 }, "it jumped: \(seen.prefix(10))")
        #expect(abs(camera.zoomPosition! - Double(VISCAModel().zoomPosition(factor: 3))) < 1)
    }

    @Test func aCameraWithoutZoomHasNoZoomDrive() throws {
        let head = try SerialHead.visca(VISCACamera(zoomPosition: nil))
        defer { head.backend.close() }
        #expect(head.backend.zoomDrive(timeout: 0.5) == nil)
        // Pan and tilt still work.
        try head.backend.setVelocity(Vector3D(x: 0, y: 0.5, z: 0), at: SystemMonotonicClock().now)
        #expect(waitFor(seconds: 1) { head.device.velocity.y > 0.4 })
    }
}
