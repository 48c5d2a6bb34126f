import Audio
import DockCore
import Foundation

/// The sound of a generated scene: every speaking span filled with speech synthesized by
/// espeak-ng in the speaker's own voice, arriving at the two microphones of a pair fixed in the
/// room at the gimbal's pivot with the delay the speaker's direction gives at each instant (so a
/// walking speaker's delay changes as they walk), over faint room noise.
public enum SceneAudio {
    public static let sampleRate = 48000.0
    static let voices = ["en+m3", "en+f3", "en+m7", "en+f4"]
    static let lines = [
        "Thanks everyone for joining. Let me start with the numbers from last week, then we can look at the plan.",
        "I have a question about the second point. Could we move the review to Thursday afternoon instead?",
        "That works for me. I will send the updated slides tonight, and we can decide tomorrow morning.",
        "One more thing before we finish: the new camera arrives on Monday, so please leave the room free.",
    ]

    /// Synthesizes the scene's audio; needs `espeak-ng` (Scripts/setup installs it).
    public static func synthesize(_ scene: SceneConfiguration, array: MicrophoneArray,
                                  espeak: String = "/usr/bin/espeak-ng") throws(AudioError) -> AudioClip {
        guard array.mounting == .room else {
            throw AudioError("generated scenes place their microphones in the room; microphones on the camera need the gimbal's pose while the sound is made")
        }
        let frames = Int((scene.resolvedDuration + 0.5) * sampleRate)
        var left = [Float](repeating: 0, count: frames), right = [Float](repeating: 0, count: frames)
        for (index, person) in scene.people.enumerated() where !person.speaking.isEmpty {
            let voice = try speech(text: lines[index % lines.count], voice: voices[index % voices.count], espeak: espeak)
            var cursor = 0   // where in the voice each span continues, so spans are not all the same words
            for span in person.speaking {
                var n = Int(span.start * sampleRate)
                let end = min(frames, Int(span.end * sampleRate))
                while n < end {
                    let t = Double(n) / sampleRate
                    let angles = person.script.angles(at: t)
                    // Half the delay on each side, in samples, plus a constant so both stay causal.
                    let delay = array.delay(forAngle: angles.yaw * .pi / 180) * sampleRate
                    let base = Double(cursor)
                    left[n] += 0.4 * sample(voice, at: base - delay / 2)
                    right[n] += 0.4 * sample(voice, at: base + delay / 2)
                    cursor = (cursor + 1) % voice.count
                    n += 1
                }
            }
        }
        var random = SeededGenerator(seed: scene.seed &+ 99)
        for n in 0..<frames {
            left[n] += Float.random(in: -0.002...0.002, using: &random)
            right[n] += Float.random(in: -0.002...0.002, using: &random)
        }
        return AudioClip(sampleRate: sampleRate, channels: [left, right])
    }

    /// Catmull-Rom interpolation between samples (the voice is band-limited well below 24 kHz).
    static func sample(_ x: [Float], at position: Double) -> Float {
        let i = Int(position.rounded(.down)), f = Float(position - Double(i))
        func at(_ k: Int) -> Float { k >= 0 && k < x.count ? x[k] : 0 }
        let p0 = at(i - 1), p1 = at(i), p2 = at(i + 1), p3 = at(i + 2)
        return p1 + 0.5 * f * (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 + f * (3 * (p1 - p2) + p3 - p0)))
    }

    /// One line spoken by espeak-ng, resampled to 48 kHz, with a short pause at the end.
    static func speech(text: String, voice: String, espeak: String) throws(AudioError) -> [Float] {
        guard FileManager.default.isExecutableFile(atPath: espeak) else {
            throw AudioError("\(espeak) not found: install espeak-ng (Scripts/setup does) to give generated scenes their speech")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opendock-speech-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: espeak)
        process.arguments = ["-v", voice, "-s", "165", "-w", path, text]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw AudioError("cannot run \(espeak): \(error.localizedDescription)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw AudioError("espeak-ng failed (status \(process.terminationStatus)) for voice \(voice)") }
        let clip = try WAVFile.read(path: path)
        let ratio = clip.sampleRate / sampleRate
        let count = Int(Double(clip.frameCount) / ratio)
        return (0..<count).map { sample(clip.channels[0], at: Double($0) * ratio) } + [Float](repeating: 0, count: Int(0.3 * sampleRate))
    }
}
