import CV4L2
import CameraOutputs
import CameraSimulation
import Capture
import DockCore
import Foundation
import Motion
import MotorDevices
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline

@Suite(.tags(.device)) struct UVCPTZTests {
    @Test func absoluteTargetsInArcSecondsOnTheCamerasStepGrid() throws {
        let camera = CameraFixtures.webcam()  // pan/tilt absolute −36000…36000, step 3600
        let backend = try UVCPTZBackend(name: "uvc", port: try V4L2ControlPort(path: camera.path, system: camera))
        #expect(backend.mode == .absolute && !backend.capabilities.hasPositionFeedback)
        var t = MonotonicInstant.zero
        for _ in 0...20 {
            try backend.setVelocity(Vector3D(x: 0.05, y: 0.1, z: 0), at: t)
            t = t.advanced(bySeconds: 0.05)
        }
        // 0.1 rad/s for 1 s = 5.73° = 20626″ → 21600″ on the 3600″ grid; pitch 0.05 rad down =
        // tilt −10313″ → −10800″.
        #expect(camera.value(of: CV4L2_CID_PAN_ABSOLUTE) == 21600)
        #expect(camera.value(of: CV4L2_CID_TILT_ABSOLUTE) == -10800)
        let state = backend.motionState(at: t)
        #expect(
            state.isCommandedOnly && abs(state.angularPositions.y - 21600 / UVCPTZBackend.arcSecondsPerRadian) < 1e-12)
    }

    @Test func speedControlsWhenTheCameraHasThem() throws {
        let camera = ScriptedVideoDevice(
            formats: [.init(.yuyv, "YUYV", sizes: [(640, 480, [30])])],
            controls: [
                .init(id: CV4L2_CID_PAN_SPEED, name: "Pan, Speed", minimum: -10, maximum: 10, defaultValue: 0),
                .init(id: CV4L2_CID_TILT_SPEED, name: "Tilt, Speed", minimum: -10, maximum: 10, defaultValue: 0),
            ])
        let backend = try UVCPTZBackend(
            name: "uvc", port: try V4L2ControlPort(path: camera.path, system: camera),
            maximumSpeed: 1.0)
        #expect(backend.mode == .speed)
        try backend.setVelocity(Vector3D(x: 0.26, y: -0.5, z: 0), at: .zero)
        #expect(camera.value(of: CV4L2_CID_PAN_SPEED) == -5 && camera.value(of: CV4L2_CID_TILT_SPEED) == -3)
        try backend.setVelocity(Vector3D(x: 0, y: 3, z: 0), at: MonotonicInstant(seconds: 0.1))
        #expect(camera.value(of: CV4L2_CID_PAN_SPEED) == 10)  // clamped to the camera's range
    }

    @Test func aCameraWithoutPanTiltIsRefused() throws {
        let camera = ScriptedVideoDevice(formats: [.init(.yuyv, "YUYV", sizes: [(640, 480, [30])])])
        #expect(throws: LinkError.self) {
            try UVCPTZBackend(name: "uvc", port: try V4L2ControlPort(path: camera.path, system: camera))
        }
    }
}
