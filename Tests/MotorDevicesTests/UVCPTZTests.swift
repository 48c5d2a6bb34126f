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

@testable import Pipeline
@testable import Rigs

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

@Suite(.tags(.device)) struct UVCZoomTests {
    func seconds(_ s: Double) -> MonotonicInstant { MonotonicInstant(seconds: s) }

    @Test func absoluteZoomIsTheFocalLengthRatioAndTheLensTakesItsTime() throws {
        let camera = CameraFixtures.webcam()  // zoom_absolute 100…500
        let port = try V4L2ControlPort(path: camera.path, system: camera)
        try port.set("zoom_absolute", to: 150)
        let zoom = try #require(UVCZoom(name: "uvc zoom", port: port, doublingsPerSecond: 1))
        #expect(zoom.mode == .absolute && zoom.range == 1...5)
        #expect(abs(zoom.factor(at: seconds(0)) - 1.5) < 1e-9)  // it starts where the camera is
        try zoom.zoom(to: 3, at: seconds(0))
        #expect(camera.value(of: CV4L2_CID_ZOOM_ABSOLUTE) == 300)
        // One doubling a second: half-way in log terms after half a second, there after one.
        #expect(abs(zoom.factor(at: seconds(0.5)) - 1.5 * pow(2, 0.5)) < 1e-9)
        #expect(abs(zoom.factor(at: seconds(1.2)) - 3) < 1e-9)
        try zoom.zoom(to: 9, at: seconds(2))
        #expect(camera.value(of: CV4L2_CID_ZOOM_ABSOLUTE) == 500)  // clamped to the camera's range
    }

    @Test func continuousZoomGoesWideFirstThenStopsAtTheTarget() throws {
        let camera = ScriptedVideoDevice(
            formats: [.init(.yuyv, "YUYV", sizes: [(640, 480, [30])])],
            controls: [
                .init(id: CV4L2_CID_ZOOM_CONTINUOUS, name: "Zoom, Continuous", minimum: -7, maximum: 7, defaultValue: 0)
            ])
        let zoom = try #require(
            UVCZoom(
                name: "uvc zoom", port: try V4L2ControlPort(path: camera.path, system: camera),
                doublingsPerSecond: 1, continuousMaximum: 4))
        #expect(zoom.mode == .continuous)
        // Where the lens is cannot be read: all the way out first (two doublings from 4×).
        try zoom.update(at: seconds(0))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == -7)
        try zoom.update(at: seconds(1))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == -7)
        try zoom.update(at: seconds(2.05))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == 0 && zoom.factor(at: seconds(2.05)) == 1)
        try zoom.zoom(to: 2, at: seconds(3))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == 7)
        try zoom.update(at: seconds(3.5))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == 7)
        try zoom.update(at: seconds(4.03))
        #expect(camera.value(of: CV4L2_CID_ZOOM_CONTINUOUS) == 0 && abs(zoom.factor(at: seconds(4.03)) - 2) < 1e-9)
    }

    @Test func aCameraWithoutZoomControlsHasNoZoomDrive() throws {
        let camera = ScriptedVideoDevice(formats: [.init(.yuyv, "YUYV", sizes: [(640, 480, [30])])])
        #expect(UVCZoom(name: "none", port: try V4L2ControlPort(path: camera.path, system: camera)) == nil)
        #expect(Rig.zoomDrive(device: nil, camera: camera.path, system: camera) == nil)
    }

    /// The live rig's frames carry the focal length the lens had when they were taken, and the
    /// camera's own zoom_absolute is not counted twice.
    @Test func liveFramesCarryTheLensFocalLength() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 10))
        var request = CaptureRequest()
        request.size = PixelSize(width: 512, height: 512)
        let camera = try ReconnectingCamera(
            path: device.path, request: request, system: device,
            intrinsics: CameraIntrinsicsSource(fieldOfView: 90), followsZoomControl: false)
        let drive = try #require(Rig.zoomDrive(device: nil, camera: device.path, system: device))
        #expect(drive is UVCZoom)
        try drive.zoom(to: 2, at: .zero)
        let frames = ZoomedFrames(camera, drive: drive)
        let frame = try #require(try frames.nextFrame())
        let expected = 256 * drive.factor(at: frame.stamp.time)
        #expect(abs(try #require(frame.camera).intrinsics.fx - expected) < 1e-6)
        #expect(device.value(of: CV4L2_CID_ZOOM_ABSOLUTE) == 200)
    }
}
