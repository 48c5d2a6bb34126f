import Capture
import DockCore
import Glibc
import Motion
import MotorDevices
import Pipeline
import Testing

@testable import Rigs

/// Whether starting again can help, by what went wrong with a device: not there or not
/// answering can (it may be plugged in or switched on), a permission or the wrong kind of
/// device cannot.
@Suite(.tags(.unit)) struct DeviceErrorKindTests {
    @Test func aCameraNotThereIsUnavailableAndOneWithoutPermissionIsSetup() {
        #expect(CaptureError.cannotOpen(path: "/dev/video9", Errno(ENOENT)).sessionKind == .deviceUnavailable)
        #expect(CaptureError.cannotOpen(path: "/dev/video0", Errno(EBUSY)).sessionKind == .deviceUnavailable)
        #expect(CaptureError.disconnected(path: "/dev/video0").sessionKind == .deviceUnavailable)
        #expect(CaptureError.cannotOpen(path: "/dev/video0", .permissionDenied).sessionKind == .setup)
        #expect(CaptureError.permissionDenied(path: "/dev/video0").sessionKind == .setup)
        #expect(CaptureError.notACaptureDevice(path: "/dev/video1").sessionKind == .setup)
        #expect(CaptureError.noUsableFormat(path: "/dev/video0", offered: ["H264"]).sessionKind == .setup)
        #expect(CaptureError.call(path: "/dev/video0", request: "VIDIOC_STREAMON", .io).sessionKind == .failed)
    }

    @Test func aGimbalNotThereOrSilentIsUnavailable() {
        #expect(MotorDeviceError.link(.cannotOpen("/dev/ttyUSB0", Errno(ENOENT))).sessionKind == .deviceUnavailable)
        #expect(
            MotorDeviceError.link(.noAnswer("/dev/ttyUSB0", what: "a status query")).sessionKind == .deviceUnavailable)
        #expect(MotorDeviceError.link(.cannotOpen("/dev/ttyUSB0", .permissionDenied)).sessionKind == .setup)
        #expect(MotorDeviceError.uvcWithoutCamera.sessionKind == .setup)
        #expect(MotorDeviceError.link(.io("/dev/ttyUSB0", .io)).sessionKind == .failed)
        #expect(MotorDeviceError.cameraControls(.notACaptureDevice(path: "/dev/video0")).sessionKind == .setup)
    }
}
