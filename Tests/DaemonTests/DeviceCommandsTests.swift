import Capture
import DockCore
import Foundation
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline
@testable import dockctl_tools

@Suite(.tags(.device)) struct DeviceCommandsTests {
    @Test func devicesPrintsForPeopleAndJSONForScripts() throws {
        let device = CameraFixtures.webcam()
        let text = try DevicesCommand.run(arguments: [], system: device).output
        #expect(text.hasPrefix("/dev/video0  Scripted Camera") && text.contains("also: \(device.stableName)"))
        let json = try DevicesCommand.run(arguments: ["--json"], system: device).output
        let decoded = try JSONDecoder().decode([V4L2DeviceInfo].self, from: Data(json.utf8))
        #expect(decoded.first?.formats.first?.fourcc == .mjpeg)
        #expect(throws: UsageError.self) { try DevicesCommand.run(arguments: ["--xml"], system: device) }
    }

    @Test func captureChecksSequenceTimestampsAndSizes() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 40))
        var command = try CaptureCommand(arguments: [
            "--device", device.path, "--frames", "30", "--size", "512x512", "--scale", "2",
        ])
        command.request.stallTimeout = 0.4
        let report = try command.run(system: device)
        #expect(report.passed && report.frames == 30 && report.size == "256x256")
        #expect(abs(report.measuredFrameRate - 30) < 0.01)
        #expect(CaptureCommand.describe(report).hasSuffix("PASS") && report.sizeNote == nil)
    }

    /// A reader asking for a size the device lacks (a virtual camera has one) gets what it has,
    /// and is told so in one line.
    @Test func captureSaysWhenTheDeviceGivesAnotherSize() throws {
        let device = CameraFixtures.webcam()
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 10))
        var command = try CaptureCommand(arguments: ["--device", device.path, "--frames", "5", "--size", "1000x1000"])
        command.request.stallTimeout = 0.4
        let report = try command.run(system: device)
        let note = try #require(report.sizeNote)
        #expect(note.hasPrefix("asked for 1000x1000; the device offers ") && !note.contains("\n"))
        #expect(CaptureCommand.describe(report).contains(note))
    }

    @Test func captureReportsAStreamThatBreaksOff() throws {
        let device = CameraFixtures.webcam()
        device.append([.frame(try CameraFixtures.jpeg()), .unplug])
        var command = try CaptureCommand(arguments: ["--device", device.path, "--size", "512x512"])
        command.request.stallTimeout = 0.4
        #expect {
            try command.run(system: device)
        } throws: { error in
            (error as? SessionError)?.message.contains("after 1 frames") == true
        }
    }
}

@Suite(.tags(.device)) struct ControlCommandTests {
    @Test func readsAndWritesControlsByName() throws {
        let device = CameraFixtures.webcam()
        let set = try ControlCommand.run(arguments: [device.path, "zoom_absolute=300", "privacy=1"], system: device)
            .get()
        #expect(set == "zoom_absolute=300\nprivacy=1")
        let read = try ControlCommand.run(arguments: [device.path, "Zoom, Absolute"], system: device).get()
        #expect(read == "zoom_absolute=300")
        let list = try ControlCommand.run(arguments: [device.path], system: device).get()
        #expect(list.contains("control pan_absolute (int) -36000…36000 step 3600"))
    }

    @Test func outOfRangeAndUnknownControlsAreRefused() throws {
        let device = CameraFixtures.webcam()
        guard
            case .failure(let error) = try ControlCommand.run(
                arguments: [device.path, "zoom_absolute=9999"], system: device)
        else {
            Issue.record("an out-of-range value was accepted")
            return
        }
        #expect(error.message.contains("range 100…500"))
        #expect(throws: UsageError.self) {
            try ControlCommand.run(arguments: [device.path, "zoom_absolute=wide"], system: device)
        }
        #expect(throws: UsageError.self) { try ControlCommand.run(arguments: [], system: device) }
    }
}
