import Audio
import DockCore
import Foundation

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
    /// The front end's CPU while it analyses the scene (the thread's own time), as a share of one
    /// core in real time: 48 kHz stereo, 20 ms windows.
    public var cpuPercentOfCore: Double?
    /// Every window against the truth, for the report's traces.
    public var windows: [Window] = []

    public struct Window: Sendable, Hashable {
        public var time: Double
        /// The people talking, and the bearing (degrees) of the one when only one talks.
        public var talkers: [Int]
        public var truthYaw: Double?
        public var direction: Double?
        public var voiced: Bool
        public var speech: Bool
        public var snrDecibels: Double
        public var harmonicity: Double
    }

    /// The windows as CSV, one row each.
    public var csv: String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
        var text = "time_s,talkers,truth_yaw_deg,direction_deg,voiced,speech,snr_db,harmonicity\n"
        for w in windows {
            text += "\(String(format: "%.3f", w.time)),\(w.talkers.map(String.init).joined(separator: " ")),"
            text += "\(number(w.truthYaw)),\(number(w.direction)),\(w.voiced ? 1 : 0),\(w.speech ? 1 : 0),"
            text += "\(number(w.snrDecibels)),\(String(format: "%.3f", w.harmonicity))\n"
        }
        return text
    }

    public static func measure(_ scene: SceneConfiguration, array: MicrophoneArray) throws(AudioError)
        -> AudioFrontEndFigures?
    {
        guard scene.people.contains(where: { !$0.speaking.isEmpty }) else { return nil }
        var fixed = array
        fixed.mounting = .room
        let clip = try SceneAudio.synthesize(scene, array: fixed)
        let cpuStart = ProcessResources.threadCPUSeconds()
        var analyzer = try SpeechAnalyzer(clip: clip, array: fixed)
        let windows = analyzer.windows(until: clip.start.advanced(bySeconds: clip.duration))
        let cpu = ProcessResources.threadCPUSeconds() - cpuStart
        var errors: [Double] = []
        var speech = (heard: 0, total: 0)
        var quiet = (voiced: 0, total: 0)
        var rows: [Window] = []
        for window in windows {
            let t = window.time.seconds
            let talking = scene.people.filter { p in p.speaking.contains { $0.contains(t) } }
            rows.append(
                Window(
                    time: t, talkers: talking.map(\.id),
                    truthYaw: talking.count == 1 ? talking[0].script.angles(at: t).yaw : nil,
                    direction: window.direction.map { $0 * 180 / .pi }, voiced: window.voiced, speech: window.isSpeech,
                    snrDecibels: window.snrDecibels, harmonicity: window.harmonicity))
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
            speechRecall: share(speech.heard, speech.total), noiseCalledVoiced: share(quiet.voiced, quiet.total),
            cpuPercentOfCore: clip.duration > 0 ? 100 * cpu / clip.duration : nil, windows: rows)
    }
}
