import Capture
import DockCore
import Foundation
import Motion
import Testing
import TestSupport
@testable import Service

@Suite struct LiveSessionTests {
    func configuration(_ device: ScriptedVideoDevice) -> SessionConfiguration {
        var c = SessionConfiguration()
        c.source = .camera(device.stableName)
        c.captureSize = PixelSize(width: 512, height: 512)
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.maximumFrames = 30
        c.maximumDuration = 20   // a stalled stream fails the test instead of holding it
        return c
    }

    @Test func liveCameraFramesAreTrackedAndCommandsKeepTheirRate() throws {
        let device = CameraFixtures.webcam()
        device.stampsWithRealTime = true
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 400))
        let session = try LiveSession(configuration: configuration(device), system: device)
        #expect(session.sourceSummary.contains("MJPG 512x512"))
        let summary = try session.run(stop: StopFlag(), status: nil)
        #expect(summary.frames == 30, "\(summary.frames) frames in \(summary.wallSeconds) s")
        #expect(summary.detectorName == "yunet+ssdlite")
        #expect(summary.rateContractErrors == 0 && summary.trackCalls > 3)
        // Commands were issued from fresh frames: latency from capture to command is recorded.
        let latency = summary.timings.percentiles("capture→command")
        #expect(latency.count > 3 && (latency.median ?? 1e9) < 100)
        #expect(summary.timings.percentiles("capture→ready").count == 30)
        // The capture thread closes the camera as it ends, which may be just after run returns.
        #expect(waitFor(seconds: 3) { device.openDescriptorCount == 0 && device.liveMappingCount == 0 })
    }

    @Test func missingCameraIsRefusedBeforeAnythingMoves() {
        let device = CameraFixtures.webcam()
        var c = configuration(device)
        c.source = .camera("/dev/v4l/by-id/usb-Nothing-video-index0")
        #expect {
            try LiveSession(configuration: c, system: device)
        } throws: { error in
            (error as? SessionError)?.message.contains("cannot open /dev/v4l/by-id/usb-Nothing-video-index0") == true
        }
    }

    @Test func simulatedGimbalCannotMoveARealCamera() {
        let device = CameraFixtures.webcam()
        var c = configuration(device)
        c.gimbal = .sim
        #expect(throws: SessionError.self) { try LiveSession(configuration: c, system: device) }
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--camera", "/dev/video0", "--gimbal", "sim"]) }
    }
}
