import Audio
import Foundation
import Simulation

/// The audio front end's own figures on a generated scene, against its truth, window by window:
/// how far the direction it gives is from the one person talking, and how its speech decisions
/// agree with who talks when. Heard as the pair fixed at the pivot hears the scene.
public struct AudioFrontEndFigures: Sendable, Hashable {
    /// Median and 90th percentile direction error (degrees) over voiced windows with one talker.
    public var medianDirectionError: Double?
    public var p90DirectionError: Double?
    /// Of those windows, the share within 5° of the talker.
    public var directionWithin5: Double?
    /// Windows while someone talks that the front end calls speech.
    public var speechRecall: Double?
    /// Windows while nobody talks (and the room's echo of the last word has died: 0.3 s) that it
    /// calls voiced.
    public var noiseCalledVoiced: Double?

    public static func measure(_ scene: SceneConfiguration, array: MicrophoneArray) throws(AudioError)
        -> AudioFrontEndFigures?
    {
        guard scene.people.contains(where: { !$0.speaking.isEmpty }) else { return nil }
        var fixed = array
        fixed.mounting = .room
        let clip = try SceneAudio.synthesize(scene, array: fixed)
        var analyzer = try SpeechAnalyzer(clip: clip, array: fixed)
        let windows = analyzer.windows(until: clip.start.advanced(bySeconds: clip.duration))
        var errors: [Double] = []
        var speech = (heard: 0, total: 0)
        var quiet = (voiced: 0, total: 0)
        for window in windows {
            let t = window.time.seconds
            let talking = scene.people.filter { p in p.speaking.contains { $0.contains(t) } }
            if talking.isEmpty {
                let echo = scene.people.contains { p in p.speaking.contains { t >= $0.end && t < $0.end + 0.3 } }
                if !echo {
                    quiet.total += 1
                    if window.voiced { quiet.voiced += 1 }
                }
                continue
            }
            speech.total += 1
            if window.isSpeech { speech.heard += 1 }
            if talking.count == 1, let direction = window.direction {
                errors.append(abs(direction * 180 / .pi - talking[0].script.angles(at: t).yaw))
            }
        }
        errors.sort()
        func share(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }
        return AudioFrontEndFigures(
            medianDirectionError: errors.isEmpty ? nil : errors[errors.count / 2],
            p90DirectionError: errors.isEmpty ? nil : errors[min(errors.count - 1, errors.count * 9 / 10)],
            directionWithin5: share(errors.filter { $0 <= 5 }.count, errors.count),
            speechRecall: share(speech.heard, speech.total), noiseCalledVoiced: share(quiet.voiced, quiet.total))
    }
}
