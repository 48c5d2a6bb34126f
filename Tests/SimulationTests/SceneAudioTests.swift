import Audio
import DockCore
import Foundation
import TestSupport
import Testing

@testable import Simulation

/// Speech synthesized for a generated scene comes from where the speaker stands.
@Suite(.tags(.unit)) struct SceneAudioTests {
    @Test func twoSpeakersAreHeardFromTheirDirections() throws {
        var scene = SceneConfiguration()
        scene.people = [
            ScenePerson(id: 1, script: .still(yaw: -14, duration: 6), speaking: [TimeSpan(0, 2.5)]),
            ScenePerson(id: 2, script: .still(yaw: 14, duration: 6), speaking: [TimeSpan(3, 5.5)]),
        ]
        let array = MicrophoneArray(spacing: 0.15, mounting: .room)
        let clip = try SceneAudio.synthesize(scene, array: array)
        #expect(clip.sampleRate == 48000 && clip.isStereo && abs(clip.duration - 6.5) < 0.01)
        var analyzer = try SpeechAnalyzer(clip: clip, array: array)
        let windows = analyzer.windows(until: MonotonicInstant(seconds: 6.5))
        func directions(_ from: Double, _ to: Double) -> [Double] {
            windows.filter { $0.time.seconds >= from && $0.time.seconds < to }.compactMap(\.direction).map {
                $0 * 180 / .pi
            }.sorted()
        }
        let first = directions(0.2, 2.4)
        let second = directions(3.2, 5.4)
        #expect(first.count > 40 && second.count > 40)
        #expect(abs(first[first.count / 2] + 14) < 2, "\(first[first.count / 2])")
        #expect(abs(second[second.count / 2] - 14) < 2, "\(second[second.count / 2])")
        // Between the speakers there is no speech (the window centred 10 ms before the next
        // speaker's first word already hears it: speech is read over 40 ms).
        #expect(windows.filter { $0.time.seconds > 2.9 && $0.time.seconds < 2.97 }.allSatisfy { !$0.isSpeech })
        // Speech windows cover most of each speaking span (espeak pauses between phrases).
        let spoken = windows.filter { $0.time.seconds < 2.5 && $0.isSpeech }.count
        #expect(spoken > 60, "\(spoken) of 125 windows")
    }

    /// Microphones on the camera: the speaker at +14° is heard straight ahead once the head has
    /// turned to +14°, at +14° while it looks ahead, and the delay follows a turn in between.
    @Test func microphonesOnTheCameraHearTheHeadsTurn() throws {
        var scene = SceneConfiguration()
        scene.people = [ScenePerson(id: 1, script: .still(yaw: 14, duration: 4), speaking: [TimeSpan(0, 4)])]
        let array = MicrophoneArray(spacing: 0.15, mounting: .camera)
        let sound = try SceneSound(scene)
        let turn = 14 * Double.pi / 180
        // Looking ahead for 1.5 s, turning over 1 s, then facing the speaker.
        let yaw = { (t: Double) in t < 1.5 ? 0 : t < 2.5 ? turn * (t - 1.5) : turn }
        var analyzer = try SpeechAnalyzer(sampleRate: sound.sampleRate, channelCount: 2, array: array)
        // Rendered in frame-sized blocks, as the closed loop does.
        for from in stride(from: 0, to: sound.frameCount, by: 1600) {
            let range = from..<min(sound.frameCount, from + 1600)
            analyzer.append(
                AudioBlock(
                    channels: sound.render(range, array: array, arrayYaw: yaw), sampleRate: sound.sampleRate,
                    start: MonotonicInstant(seconds: Double(from) / sound.sampleRate), sequence: from / 1600))
        }
        let windows = analyzer.windows(until: MonotonicInstant(seconds: 4.5))
        func median(_ from: Double, _ to: Double) -> Double? {
            let found = windows.filter { $0.time.seconds >= from && $0.time.seconds < to }.compactMap(\.direction)
                .sorted()
            return found.isEmpty ? nil : found[found.count / 2] * 180 / .pi
        }
        let ahead = try #require(median(0.2, 1.4))
        let facing = try #require(median(2.6, 3.9))
        let midway = try #require(median(1.9, 2.1))
        #expect(abs(ahead - 14) < 2 && abs(facing) < 2, "ahead \(ahead)°, facing \(facing)°")
        #expect(abs(midway - 7) < 3, "midway \(midway)°")
        // A pair fixed in the room hears the same scene from +14° throughout.
        let room = try SceneAudio.synthesize(scene, array: MicrophoneArray(spacing: 0.15, mounting: .room))
        var fixed = try SpeechAnalyzer(clip: room, array: array)
        let still = fixed.windows(until: MonotonicInstant(seconds: 4.5)).filter { $0.time.seconds > 2.6 }.compactMap(
            \.direction
        ).sorted()
        #expect(abs(still[still.count / 2] * 180 / .pi - 14) < 2)
    }

    @Test func missingSynthesizerIsAClearError() {
        var scene = SceneConfiguration()
        scene.people = [ScenePerson(id: 1, script: .still(duration: 1), speaking: [TimeSpan(0, 1)])]
        #expect {
            try SceneAudio.synthesize(scene, array: MicrophoneArray(), espeak: "/nonexistent/espeak-ng")
        } throws: {
            ($0 as? AudioError)?.message.contains("install espeak-ng") == true
        }
    }
}
