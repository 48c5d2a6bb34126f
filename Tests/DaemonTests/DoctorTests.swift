import CameraOutputs
import Capture
import DockCore
import Foundation
import Perception
import TestSupport
import Testing

@testable import dockctl_tools

/// `dockctl doctor` on stand-ins for a machine: a webcam, v4l2loopback without exclusive_caps,
/// a serial head, a sound card, one model file that is not the right one; and on an empty one.
@Suite(.tags(.unit)) struct DoctorTests {
    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aSetupIsCheckedLineByLine() throws {
        let root = Fixtures.temporaryDirectory("doctor")
        try write("N\n", to: root + "/sys/module/v4l2loopback/parameters/exclusive_caps")
        try write(
            " 0 [C920           ]: USB-Audio - HD Pro Webcam C920\n                      Logitech\n",
            to: root + "/proc/asound/cards")
        try write("", to: root + "/dev/ttyUSB0")
        let models = root + "/models"
        try write("not a network", to: models + "/face_detection_yunet_2022mar.onnx")
        var surroundings = DoctorCommand.Surroundings()
        surroundings.video = CameraFixtures.webcam()
        surroundings.root = root
        surroundings.models = ModelRegistry(searchDirectories: [models])
        surroundings.controlSocket = root + "/no-dockd.sock"
        surroundings.membership = .init(isRoot: false, groups: ["users", "video", "audio"])
        let findings = DoctorCommand(surroundings: surroundings).run()
        let report = DoctorCommand.describe(findings)
        #expect(
            findings.contains(
                .init(
                    status: .warning,
                    line:
                        "permissions: this user is not in the dialout, input groups (serial heads, a remote's buttons); add yourself (sudo usermod -aG dialout,input $USER) and log in again"
                )), "\(report)")
        #expect(findings.count == ModelRegistry.entries.count + 6, "\(report)")
        #expect(
            findings.contains(
                .init(
                    status: .problem,
                    line:
                        "model yunet: \(models)/face_detection_yunet_2022mar.onnx is not the expected file (sha256 differs); remove it and run Scripts/setup"
                )))
        #expect(
            findings.filter { $0.line.hasPrefix("model ") && $0.status == .warning }.count == ModelRegistry.entries
                .count - 1)
        #expect(
            findings.contains {
                $0.status == .ok && $0.line.hasPrefix("camera /dev/video") && $0.line.contains("MJPEG up to 1280x720")
            })
        #expect(
            findings.contains {
                $0.status == .warning && $0.line.hasPrefix("video out: v4l2loopback loaded without exclusive_caps (N)")
            })
        #expect(
            findings.contains(
                .init(
                    status: .ok,
                    line: "serial \(root)/dev/ttyUSB0: readable and writable (dockctl calibrate checks the head on it)")
            ))
        #expect(
            findings.contains { $0.status == .ok && $0.line.hasPrefix("microphones: sound cards HD Pro Webcam C920") })
        // Every line that is not ok says what to do.
        for finding in findings where finding.status != .ok {
            #expect(
                ["run ", "use ", "add ", "reload ", "remove ", "plug ", "put "].contains { finding.line.contains($0) },
                "\(finding.line)")
        }
    }

    @Test func aMachineWithNothingSaysSo() {
        var surroundings = DoctorCommand.Surroundings()
        let unplugged = CameraFixtures.webcam()
        unplugged.unplug()
        surroundings.video = unplugged
        surroundings.root = Fixtures.temporaryDirectory("doctor-empty")
        surroundings.models = ModelRegistry(searchDirectories: [surroundings.root])
        surroundings.controlSocket = surroundings.root + "/dockd.sock"
        let findings = DoctorCommand(surroundings: surroundings).run()
        #expect(!findings.contains { $0.status == .problem })
        #expect(
            findings.last?.line.hasPrefix("hardware: no camera, serial head or microphone found on this machine")
                == true)
        #expect(findings.contains { $0.line.hasPrefix("camera: no V4L2 capture device") })
        #expect(findings.contains { $0.line.hasPrefix("video out: v4l2loopback is not loaded") })
    }

    /// A v4l2loopback device is video out's, listed as such (a reader could open it), never as a camera.
    @Test func aVirtualCameraIsVideoOutNotACamera() throws {
        let root = Fixtures.temporaryDirectory("doctor-loopback")
        try write("Y\n", to: root + "/sys/module/v4l2loopback/parameters/exclusive_caps")
        var surroundings = DoctorCommand.Surroundings()
        surroundings.video = SimulatedLoopback(path: "/dev/video10")
        surroundings.root = root
        surroundings.models = ModelRegistry(searchDirectories: [root])
        surroundings.controlSocket = root + "/dockd.sock"
        let findings = DoctorCommand(surroundings: surroundings).run()
        #expect(
            findings.contains(
                .init(
                    status: .ok,
                    line:
                        "video out /dev/video10 (OpenDock camera): a v4l2loopback device this user can open; dockd --video-out /dev/video10 writes there"
                )), "\(DoctorCommand.describe(findings))")
        #expect(!findings.contains { $0.line.hasPrefix("camera /dev/video10") })
    }
}
