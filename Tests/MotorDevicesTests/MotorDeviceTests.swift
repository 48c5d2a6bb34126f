import Capture
import DockCore
import Foundation
import Imaging
import Motion
import MotorDevices
import TestSupport
import Testing

@testable import Options
@testable import Pipeline
@testable import Rigs

@Suite(.tags(.unit)) struct MotorDeviceSpecTests {
    @Test func specsParse() {
        #expect(MotorDeviceSpec(parsing: "simplebgc:/dev/ttyUSB0") == .simpleBGC(path: "/dev/ttyUSB0", baud: 115200))
        #expect(MotorDeviceSpec(parsing: "visca:/dev/ttyS1@38400") == .viscaSerial(path: "/dev/ttyS1", baud: 38400))
        #expect(MotorDeviceSpec(parsing: "visca-udp:192.0.2.7") == .viscaUDP(host: "192.0.2.7", port: 52381))
        #expect(MotorDeviceSpec(parsing: "visca-tcp:cam.local:5678") == .viscaTCP(host: "cam.local", port: 5678))
        #expect(
            MotorDeviceSpec(parsing: "pelco:/dev/ttyUSB1@2400/7")
                == .pelcoD(path: "/dev/ttyUSB1", baud: 2400, address: 7))
        #expect(MotorDeviceSpec(parsing: "maestro:/dev/ttyACM0") == .maestro(path: "/dev/ttyACM0"))
        #expect(MotorDeviceSpec(parsing: "uvc") == .uvc)
        for bad in ["bgc:/dev/x", "visca:", "visca-tcp:host", "visca:/dev/x@fast", "simplebgc"] {
            #expect(MotorDeviceSpec(parsing: bad) == nil, "\(bad)")
        }
    }

    /// Opening says what failed in a type a caller can act on: no camera for `uvc`, or the link.
    @Test func openingFailsWithATypedError() {
        #expect {
            try MotorDeviceSpec.uvc.connect(camera: nil) { _ in }
        } throws: { error in
            guard case .uvcWithoutCamera = error as? MotorDeviceError else { return false }
            return "\(error)".contains("needs --camera")
        }
        #expect {
            try MotorDeviceSpec.simpleBGC(path: "/nonexistent/ttyUSB9", baud: 115200).connect(camera: nil) { _ in }
        } throws: { error in
            guard case .link(.cannotOpen(_, let errno)) = error as? MotorDeviceError else { return false }
            return errno == .noEntry
        }
    }

    @Test func aRealGimbalNeedsALiveCamera() {
        #expect(throws: UsageError.self) {
            try DockdOptions.parse(["--source", "a.avi", "--gimbal", "simplebgc:/dev/ttyUSB0"])
        }
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--gimbal", "robot:/dev/x"]) }
        #expect(throws: Never.self) {
            try DockdOptions.parse(["--camera", "/dev/video0", "--gimbal", "visca-udp:10.0.0.9"])
        }
    }
}

@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct LiveGimbalTests {
    /// The astronaut in the right half of the picture, as a JPEG.
    func offCentreJPEG() throws -> [UInt8] {
        var canvas = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: 512, height: 512, format: .bgr, fill: 90)
        try canvas.blend(
            try Fixtures.photo("astronaut.png"), alpha: nil, into: PixelRect(x: 256, y: 128, width: 256, height: 256))
        let path = Fixtures.temporaryDirectory("offcentre") + "/frame.jpg"
        try canvas.write(to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func liveCameraDrivesASimpleBGCGimbalOverAPty() throws {
        let camera = CameraFixtures.webcam()
        camera.stampsWithRealTime = true
        camera.append(Array(repeating: .frame(try offCentreJPEG()), count: 400))
        let gimbal = try SimpleBGCPeer()
        var c = SessionConfiguration()
        c.source = .camera(camera.path)
        c.captureSize = PixelSize(width: 512, height: 512)
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.gimbal = .device(.simpleBGC(path: gimbal.path, baud: 115200))
        c.maximumDuration = 1.5
        let session = try Pipeline(live: c, system: camera)
        #expect(session.motorName.hasPrefix("simplebgc:"))
        var sawRightTurn = false
        let summary = try session.run(stop: StopFlag()) { _ in
            if gimbal.velocity.y > 0.05 { sawRightTurn = true }
        }
        #expect(summary.trackCalls > 10 && summary.rateContractErrors == 0)
        #expect(gimbal.controlFrames > 10)
        #expect(sawRightTurn)
        // Motors stopped at the end of the run.
        #expect(waitFor(seconds: 1) { gimbal.velocity == Vector3D() })
    }
}
