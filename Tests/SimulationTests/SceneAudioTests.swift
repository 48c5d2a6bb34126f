import Audio
import DockCore
import Foundation
import Testing
@testable import Simulation

/// Speech synthesized for a generated scene comes from where the speaker stands.
@Suite struct SceneAudioTests {
    @Test func twoSpeakersAreHeardFromTheirDirections() throws {
        var scene = SceneConfiguration()
        scene.people = [ScenePerson(id: 1, script: .still(yaw: -14, duration: 6), speaking: [TimeSpan(0, 2.5)]),
                        ScenePerson(id: 2, script: .still(yaw: 14, duration: 6), speaking: [TimeSpan(3, 5.5)])]
        let array = MicrophoneArray(spacing: 0.15, mounting: .room)
        let clip = try SceneAudio.synthesize(scene, array: array)
        #expect(clip.sampleRate == 48000 && clip.isStereo && abs(clip.duration - 6.5) < 0.01)
        var analyzer = try SpeechAnalyzer(clip: clip, array: array)
        let windows = analyzer.windows(until: MonotonicInstant(seconds: 6.5))
        func directions(_ from: Double, _ to: Double) -> [Double] {
            windows.filter { $0.time.seconds >= from && $0.time.seconds < to }.compactMap(\.direction).map { $0 * 180 / .pi }.sorted()
        }
        let first = directions(0.2, 2.4), second = directions(3.2, 5.4)
        #expect(first.count > 40 && second.count > 40)
        #expect(abs(first[first.count / 2] + 14) < 2, "\(first[first.count / 2])")
        #expect(abs(second[second.count / 2] - 14) < 2, "\(second[second.count / 2])")
        // Between the speakers there is no speech.
        #expect(windows.filter { $0.time.seconds > 2.9 && $0.time.seconds < 3.0 }.allSatisfy { !$0.isSpeech })
        // Speech windows cover most of each speaking span (espeak pauses between phrases).
        let spoken = windows.filter { $0.time.seconds < 2.5 && $0.isSpeech }.count
        #expect(spoken > 60, "\(spoken) of 125 windows")
    }

    @Test func missingSynthesizerIsAClearError() {
        var scene = SceneConfiguration()
        scene.people = [ScenePerson(id: 1, script: .still(duration: 1), speaking: [TimeSpan(0, 1)])]
        #expect { try SceneAudio.synthesize(scene, array: MicrophoneArray(), espeak: "/nonexistent/espeak-ng") } throws: {
            ($0 as? AudioError)?.message.contains("install espeak-ng") == true
        }
    }
}
