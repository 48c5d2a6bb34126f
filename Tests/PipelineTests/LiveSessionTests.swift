import Audio
import CameraSimulation
import Capture
import DockCore
import Foundation
import Motion
import TestSupport
import Testing

@testable import Options
@testable import Pipeline
@testable import Rigs
@testable import dockctl_tools

@Suite(.tags(.realTime), .notInFastRuns) struct LiveSessionTests {
    func configuration(_ device: ScriptedVideoDevice) -> SessionConfiguration {
        var c = SessionConfiguration()
        c.source = .camera(device.stableName)
        c.captureSize = PixelSize(width: 512, height: 512)
        c.modelsDirectory = Fixtures.repositoryRoot + "/models"
        c.maximumFrames = 30
        c.maximumDuration = 20  // a stalled stream fails the test instead of holding it
        return c
    }

    @Test func liveCameraFramesAreTrackedAndCommandsKeepTheirRate() throws {
        let device = CameraFixtures.webcam()
        device.stampsWithRealTime = true
        // 60 s of frames: enough for 75 processed at a sanitized build's speed.
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 1200))
        let session = try Pipeline(live: configuration(device), system: device)
        #expect(session.sourceSummary.contains("MJPG 512x512"))
        let summary = try session.run(stop: StopFlag(), status: nil)
        #expect(summary.frames == 30, "\(summary.frames) frames in \(summary.wallSeconds) s")
        #expect(summary.detectorName == "yunet+ssdlite")
        #expect(summary.rateContractErrors == 0 && summary.trackCalls > 3)
        // Commands were issued from fresh frames: latency from capture to command is recorded
        // (its size is the soak's figure, not a bound here).
        let latency = summary.timings.percentiles("capture→command")
        #expect(latency.count > 3 && (latency.value(at: 0) ?? -1) >= 0)
        #expect(summary.timings.percentiles("capture→ready").count == 30)
        // The capture thread closes the camera as it ends, which may be just after run returns.
        #expect(waitFor(seconds: 3) { device.openDescriptorCount == 0 && device.liveMappingCount == 0 })
    }

    /// A faulty camera: error-flagged buffers, frames the driver lost, damaged JPEGs. The
    /// summary accounts for every frame it produced, each under its cause, and so does /metrics.
    @Test func everyFrameAFaultyCameraProducedIsAccountedFor() throws {
        let device = CameraFixtures.webcam()
        device.stampsWithRealTime = true
        let good = try CameraFixtures.jpeg()
        let damaged = Array(good.prefix(600)) + [UInt8](repeating: 0x5A, count: 400)
        var script: [ScriptedVideoDevice.ScriptItem] = []
        for i in 0..<40 {
            script.append(.frame(good))
            if i % 10 == 3 { script.append(.errorFrame(good)) }
            if i % 10 == 6 { script.append(.lost(2)) }
            if i % 20 == 9 { script.append(.frame(damaged)) }
        }
        device.append(script)
        var c = configuration(device)
        // The whole script (54 frames, under 2 s), then a stalled stream until the limit.
        c.maximumFrames = nil
        c.maximumDuration = 3
        let session = try Pipeline(live: c, system: device)
        let summary = try session.run(stop: StopFlag(), status: nil)
        let a = summary.accounting
        #expect(a.source.errorFlagged == 4 && a.source.lostInDriver == 8, "\(a.report)")
        #expect(a.source.damaged == 2, "\(a.report)")
        // 40 good + 4 flagged + 2 damaged delivered by the driver, 8 lost in it.
        #expect(a.produced == 54, "\(a.report)")
        #expect(
            a.processed == summary.frames && a.processed + a.notProcessed == a.produced && a.processed > 10,
            "\(a.report)")
        #expect(summary.report().contains("frames produced 54: \(a.processed) processed"), "\(summary.report())")
        #expect(session.monitor.counters().accounting == a)
    }

    @Test func missingCameraIsRefusedBeforeAnythingMoves() {
        let device = CameraFixtures.webcam()
        var c = configuration(device)
        c.source = .camera("/dev/v4l/by-id/usb-Nothing-video-index0")
        #expect {
            try Pipeline(live: c, system: device)
        } throws: { error in
            // Not there (yet): worth starting again for, unlike a setting that cannot work.
            (error as? SessionError)?.message.contains("cannot open /dev/v4l/by-id/usb-Nothing-video-index0") == true
                && (error as? SessionError)?.kind == .deviceUnavailable
        }
    }

    @Test func simulatedGimbalCannotMoveARealCamera() {
        let device = CameraFixtures.webcam()
        var c = configuration(device)
        c.gimbal = .sim
        #expect { try Pipeline(live: c, system: device) } throws: { ($0 as? SessionError)?.kind == .setup }
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--camera", "/dev/video0", "--gimbal", "sim"]) }
    }
}

/// The live session listening through ALSA: a capture device on ALSA's `file` plugin reads a
/// named pipe that a thread fills in real time, 20 ms at a time, as a microphone would.
@Suite(.tags(.realTime), .notInFastRuns) struct LiveSessionAudioTests {
    /// Stereo 16-bit sound written to a FIFO at its own pace: hiss, then from 0.3 s a buzz
    /// arriving from `angle` (the right channel delayed accordingly) until `seconds`; `gain`
    /// scales it (0 with no hiss: a muted microphone; large: one that clips).
    final class PacedMicrophone: Sendable {
        let path: String
        init(angle: Double, seconds: Double, array: MicrophoneArray, gain: Double = 1, hiss: Bool = true) throws {
            path = Fixtures.temporaryDirectory("mic") + "/mic.fifo"
            guard mkfifo(path, 0o600) == 0 else { throw SessionError("mkfifo failed") }
            signal(SIGPIPE, SIG_IGN)  // a write after the reader has gone fails instead of killing the tests
            let rate = 48000.0
            var random = SeededGenerator(seed: 4)
            // The buzz is periodic (130 cycles a second), so 1 s of it is made and repeated.
            let count = Int(min(seconds, 1.3) * rate)
            let voice: [Float] = (0..<count).map { n in
                let t = Double(n) / rate
                guard t > 0.3 else { return 0 }
                // A voiced sound: a 130 Hz sawtooth, broadband like the glottal pulses of speech.
                let phase = 130 * t
                return Float(gain * 0.2 * (2 * (phase - phase.rounded(.down)) - 1))
            }
            let lag = array.delay(forAngle: angle) * rate
            let left = FractionalDelay.delayed(voice, by: max(0, lag))
            let right = FractionalDelay.delayed(voice, by: max(0, -lag))
            var pcm = [UInt8]()
            pcm.reserveCapacity(count * 4)
            for n in 0..<count {
                for value in [left[n], right[n]] {
                    let sample = Int16(
                        max(-1, min(1, value + (hiss ? Float.random(in: -0.003...0.003, using: &random) : 0))) * 32767)
                    withUnsafeBytes(of: sample.littleEndian) { pcm.append(contentsOf: $0) }
                }
            }
            let path = self.path
            let chunk = 960 * 4
            let bytes = pcm
            let loopStart = Int(0.3 * rate) * 4
            let total = Int(seconds * rate) * 4
            let thread = Thread {
                guard let file = FileHandle(forWritingAtPath: path) else { return }  // waits for the reader
                let start = Date()
                for (index, at) in stride(from: 0, to: total, by: chunk).enumerated() {
                    Thread.sleep(until: start.addingTimeInterval(Double(index) * 0.02))
                    let from = at < bytes.count ? at : loopStart + (at - loopStart) % (bytes.count - loopStart)
                    // The reader has gone (the session ended): stop.
                    guard (try? file.write(contentsOf: bytes[from..<min(bytes.count, from + chunk)])) != nil else {
                        break
                    }
                }
                try? file.close()
            }
            thread.start()
        }

        var configuration: String {
            "pcm.cam { type file slave.pcm { type null } file \"/dev/null\" infile \"\(path)\" format raw }"
        }
    }

    /// A webcam showing the astronaut in real time, and a configuration for it listening to `microphone`.
    func webcam(frames: Int = 75, microphone: String, alsaConfiguration: String? = nil) throws -> (
        ScriptedVideoDevice, SessionConfiguration
    ) {
        let device = CameraFixtures.webcam()
        device.stampsWithRealTime = true
        // 60 s of frames: enough for 75 processed at a sanitized build's speed.
        device.append(Array(repeating: .frame(try CameraFixtures.jpeg()), count: 1200))
        var c = configuration(device)
        c.maximumFrames = frames
        c.audioDevice = microphone
        c.audioConfiguration = alsaConfiguration
        return (device, c)
    }

    func configuration(_ device: ScriptedVideoDevice) -> SessionConfiguration {
        var c = LiveSessionTests().configuration(device)
        c.maximumFrames = 75
        c.bodyDetector = .none
        c.microphones = MicrophoneArray(spacing: 0.15, mounting: .camera)
        return c
    }

    /// The voice comes from where the astronaut's face is (YuNet puts its centre at x ≈ 225 of
    /// 512; 70° across): she is heard as the speaker, and every captured block is analysed.
    @Test func theTrackedFaceIsHeardSpeaking() throws {
        let focal = 256 / tan(35 * Double.pi / 180)
        let microphone = try PacedMicrophone(
            // Longer than the run however slowly the machine processes (a sanitized build: 3 fps).
            angle: atan((225 - 256) / focal), seconds: 30, array: MicrophoneArray(spacing: 0.15, mounting: .camera))
        let (device, c) = try webcam(microphone: "cam", alsaConfiguration: microphone.configuration)
        let session = try Pipeline(live: c, system: device)
        // The start line says how the pair is read, and what to do if the head turns the wrong way.
        #expect(
            session.audioNote
                == "audio: ALSA 'cam': 2 channels at 48000 Hz; \(MicrophoneArray().orderNote); lips: facemesh")
        #expect(session.audioNote?.contains("--mic-order right-left") == true)
        let summary = try session.run(stop: StopFlag(), status: nil)
        #expect(summary.frames == 75)
        let blocks = try #require(summary.audioBlocks)
        #expect(blocks >= 50, "\(blocks) blocks in \(summary.wallSeconds) s")  // 125 when the machine keeps up
        // A sanitized build may analyse too slowly to keep every block; those it loses are counted.
        if !Sanitizer.isActive { #expect(summary.audioBlocksDropped == 0) }
        // Heard from 0.3 s + the confirmation; the run lasts about 2.5 s. A sanitized build on a
        // busy machine analyses a few frames a second: there she need only be heard at all.
        #expect(
            summary.framesWithSpeaker >= (Sanitizer.isActive ? 1 : 20),
            "\(summary.framesWithSpeaker) of \(summary.frames) in \(summary.wallSeconds) s; \(summary.report())")
        #expect(summary.report().contains("audio: \(blocks) blocks"))
    }

    /// A microphone that is not there is reported in one line, and tracking goes on by vision.
    @Test func aMissingMicrophoneLeavesTrackingOnVision() throws {
        let (device, c) = try webcam(frames: 20, microphone: "plughw:CARD=NoSuchMic")
        let session = try Pipeline(live: c, system: device)
        let note = try #require(session.audioNote)
        #expect(
            note.hasPrefix("audio off, tracking on vision alone: no ALSA capture device 'plughw:CARD=NoSuchMic'"),
            "\(note)")
        #expect(!note.contains("\n"))
        let summary = try session.run(stop: StopFlag(), status: nil)
        #expect(summary.frames == 20 && summary.trackCalls > 3 && summary.audioBlocks == nil)
    }

    @Test func audioOptionsMatchTheSource() {
        #expect(throws: UsageError.self) { try DockdOptions.parse(["--camera", "/dev/video0", "--audio", "talk.wav"]) }
        #expect(throws: UsageError.self) {
            try DockdOptions.parse(["--source", "talk.avi", "--audio-device", "default"])
        }
        #expect(
            (try? DockdOptions.parse(["--camera", "/dev/video0", "--audio-device", "plughw:CARD=C920"]))?.configuration
                .audioDevice == "plughw:CARD=C920")
        #expect(
            (try? DockdOptions.parse(["--camera", "/dev/video0", "--audio-device", "2"]))?.configuration.audioDevice
                == "plug:'dsnoop:CARD=2,DEV=0'")
    }

    /// A one-channel microphone (ALSA's multi plugin binding one channel of a silent file) is
    /// used for voice activity, and the start-up line says what that means.
    @Test func aMonoMicrophoneIsUsedAndSaysSo() throws {
        let (device, c) = try webcam(
            frames: 20, microphone: "mono",
            alsaConfiguration: """
                pcm.silence { type file slave.pcm { type null } file "/dev/null" infile "/dev/zero" format raw }
                pcm.mono { type multi slaves.a.pcm silence slaves.a.channels 1 bindings.0.slave a bindings.0.channel 0 }
                """)
        let session = try Pipeline(live: c, system: device)
        #expect(
            session.audioNote?.hasPrefix("audio: ALSA 'mono': 1 channel at 48000 Hz (mono: no direction;") == true,
            "\(session.audioNote ?? "")")
        let summary = try session.run(stop: StopFlag(), status: nil)
        #expect(summary.frames == 20 && (summary.audioBlocks ?? 0) > 0 && summary.framesWithSpeaker == 0)
    }
}

/// `dockctl listen` on a paced microphone: a voice from +20° is reported from there.
@Suite(.tags(.unit)) struct ListenCommandTests {
    /// `dockctl listen` with `options` for 2 s on a voice from +20°.
    func listenToAVoiceOnTheRight(
        _ options: [String], seconds: Double = 2, gain: Double = 1, hiss: Bool = true
    ) throws -> ListenCommand.Report {
        let array = MicrophoneArray(spacing: 0.15, mounting: .room)
        let microphone = try LiveSessionAudioTests.PacedMicrophone(
            angle: 20 * .pi / 180, seconds: seconds + 0.5, array: array, gain: gain, hiss: hiss)
        var listen = try ListenCommand(arguments: ["--device", "cam", "--seconds", "\(seconds)"] + options)
        listen.alsaConfiguration = microphone.configuration
        return try listen.run()
    }

    @Test func listenReportsSpeechAndItsDirection() throws {
        let report = try listenToAVoiceOnTheRight(["--mic-spacing", "0.15"])
        #expect(report.summary == "ALSA 'cam': 2 channels at 48000 Hz" && report.blocks >= 100)
        #expect(report.speechShare > 0.6, "\(report)")
        #expect(abs((report.directionDegrees ?? 0) - 20) < 2, "\(report)")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(
            ListenCommand.describe(report).contains(
                String(
                    format: "speech %.0f %% of the time, from %+.1f°", report.speechShare * 100,
                    report.directionDegrees ?? 0)))
        #expect(throws: UsageError.self) { try ListenCommand(arguments: ["--seconds", "-1"]) }
        #expect((try? ListenCommand(arguments: ["--device", "1"]))?.device == "plug:'dsnoop:CARD=1,DEV=0'")
    }

    /// The same voice through a pair read the other way round comes from the mirrored side.
    @Test func aPairReadTheOtherWayRoundHearsTheMirroredDirection() throws {
        let report = try listenToAVoiceOnTheRight(["--mic-order", "right-left"])
        #expect(abs((report.directionDegrees ?? 0) + 20) < 2, "\(report)")
        #expect(throws: UsageError.self) { try ListenCommand(arguments: ["--mic-order", "up-down"]) }
    }

    /// A muted microphone and one turned up until it clips are each named in one line.
    @Test func aMutedAndAClippingMicrophoneAreReported() throws {
        let muted = try listenToAVoiceOnTheRight([], seconds: 2.5, gain: 0, hiss: false)
        #expect(muted.problems.count == 1 && muted.problems[0].contains("gives only silence"), "\(muted.problems)")
        #expect(ListenCommand.describe(muted).hasSuffix(muted.problems[0]))
        let loud = try listenToAVoiceOnTheRight([], gain: 8)
        #expect(loud.problems.count == 1 && loud.problems[0].contains("clips"), "\(loud.problems)")
    }
}
