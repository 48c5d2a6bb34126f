import Audio
import DockCore
import Foundation

/// The sound of a generated scene: every speaking span filled with speech synthesized by
/// espeak-ng in the speaker's own voice, arriving at the two microphones of a pair with the
/// delay the speaker's direction gives at each instant (so a walking speaker's delay changes as
/// they walk), over faint room noise. The pair sits at the gimbal's pivot, fixed in the room or
/// turning with the camera: then the delay follows the head's yaw as it is rendered.
public struct SceneSound: Sendable {
    public let sampleRate = SceneAudio.sampleRate
    /// Samples in the scene (its duration plus half a second).
    public let frameCount: Int
    /// Each speaker's speech on the scene's timeline (silent outside their spans), as it would be
    /// heard at the pivot, and where they are.
    private let speakers: [(speech: [Float], script: SceneScript)]
    private let noiseSeed: UInt64

    /// Synthesizes the scene's speech; needs `espeak-ng` (Scripts/setup installs it). A scene
    /// with a room is heard through its walls by a pair fixed in it (`SceneAudio.synthesize`),
    /// not rendered as the head turns.
    public init(_ scene: SceneConfiguration, espeak: String = "/usr/bin/espeak-ng") throws(AudioError) {
        guard scene.room == nil else {
            throw AudioError(
                "a scene with a room is heard by a pair fixed in it at the pivot; run it without --mics camera")
        }
        frameCount = Int((scene.resolvedDuration + 0.5) * SceneAudio.sampleRate)
        speakers = try SceneAudio.speechTracks(scene, count: frameCount, espeak: espeak).map {
            ($0.track, $0.person.script)
        }
        noiseSeed = scene.seed &+ 99
    }

    /// Samples `range` of both microphones. `arrayYaw` gives the pair's facing (radians) at a
    /// time in seconds: 0 for a pair fixed in the room, the head's yaw for one on the camera.
    public func render(_ range: Range<Int>, array: MicrophoneArray, arrayYaw: (Double) -> Double = { _ in 0 })
        -> [[Float]]
    {
        let range = range.clamped(to: 0..<frameCount)
        var left = [Float](repeating: 0, count: range.count)
        var right = [Float](repeating: 0, count: range.count)
        for speaker in speakers {
            for (i, n) in range.enumerated() {
                let t = Double(n) / sampleRate
                // Half the delay on each side, in samples, around the sound at the pivot.
                let direction = speaker.script.angles(at: t).yaw * .pi / 180 - arrayYaw(t)
                let delay = array.delay(forAngle: direction) * sampleRate
                left[i] += 0.4 * SceneAudio.sample(speaker.speech, at: Double(n) - delay / 2)
                right[i] += 0.4 * SceneAudio.sample(speaker.speech, at: Double(n) + delay / 2)
            }
        }
        // Room noise, the same for a sample whichever block it falls in.
        for (i, n) in range.enumerated() {
            var random = SeededGenerator(seed: noiseSeed &+ UInt64(n) &* 0xD6E8_FEB8_6659_FD93)
            left[i] += Float.random(in: -0.002...0.002, using: &random)
            right[i] += Float.random(in: -0.002...0.002, using: &random)
        }
        return [left, right]
    }
}

/// Speech for generated scenes.
public enum SceneAudio {
    public static let sampleRate = 48000.0
    static let voices = ["en+m3", "en+f3", "en+m7", "en+f4"]
    static let lines = [
        "Thanks everyone for joining. Let me start with the numbers from last week, then we can look at the plan.",
        "I have a question about the second point. Could we move the review to Thursday afternoon instead?",
        "That works for me. I will send the updated slides tonight, and we can decide tomorrow morning.",
        "One more thing before we finish: the new camera arrives on Monday, so please leave the room free.",
    ]

    /// The whole scene heard by a pair fixed in the room; a pair on the camera needs the head's
    /// pose as the sound is made (`SceneSound.render`).
    public static func synthesize(
        _ scene: SceneConfiguration, array: MicrophoneArray,
        espeak: String = "/usr/bin/espeak-ng"
    ) throws(AudioError) -> AudioClip {
        guard array.mounting == .room else {
            throw AudioError(
                "microphones on the camera hear the scene as the head turns: render it with SceneSound as the loop runs"
            )
        }
        if let room = scene.room {
            let count = Int((scene.resolvedDuration + 0.5) * sampleRate)
            let tracks = try speechTracks(scene, count: count, espeak: espeak)
            return AudioClip(
                sampleRate: sampleRate, channels: RoomSound.render(scene, room: room, array: array, speech: tracks))
        }
        let sound = try SceneSound(scene, espeak: espeak)
        return AudioClip(sampleRate: sampleRate, channels: sound.render(0..<sound.frameCount, array: array))
    }

    /// Each speaking person's voice on the scene's timeline (silent outside their spans), dry:
    /// espeak-ng in their own voice, or their turns of the scene's recorded conversation.
    static func speechTracks(_ scene: SceneConfiguration, count: Int, espeak: String) throws(AudioError)
        -> [(person: ScenePerson, track: [Float])]
    {
        if let recorded = scene.recordedSpeech { return try recordedTracks(scene, recorded, count: count) }
        var out: [(person: ScenePerson, track: [Float])] = []
        for (index, person) in scene.people.enumerated() where !person.speaking.isEmpty {
            let voice = try speech(
                text: lines[index % lines.count], voice: voices[index % voices.count], espeak: espeak)
            var track = [Float](repeating: 0, count: count)
            var cursor = 0  // where in the voice each span continues, so spans are not all the same words
            for span in person.speaking {
                for n in Int(span.start * sampleRate)..<min(count, Int(span.end * sampleRate)) {
                    track[n] = voice[cursor]
                    cursor = (cursor + 1) % voice.count
                }
            }
            out.append((person, track))
        }
        return out
    }

    /// The recording resampled to 48 kHz, given to each person over their labelled turns (with
    /// 15 ms fades, so a cut is not a click): where two overlap, both voices sound from both.
    static func recordedTracks(_ scene: SceneConfiguration, _ recorded: RecordedSpeech, count: Int)
        throws(AudioError) -> [(person: ScenePerson, track: [Float])]
    {
        let clip = try WAVFile.read(path: recorded.path)
        let mono = clip.channels[0]
        let ratio = clip.sampleRate / sampleRate
        let fade = 0.015 * sampleRate
        var out: [(person: ScenePerson, track: [Float])] = []
        for person in scene.people {
            let spans = recorded.turns.filter { $0.person == person.id }.map(\.span)
            guard !spans.isEmpty else { continue }
            var track = [Float](repeating: 0, count: count)
            for span in spans {
                let from = Int(span.start * sampleRate)
                let to = min(count, Int(span.end * sampleRate))
                guard from < to else { continue }
                for n in from..<to {
                    let edge = min(Double(n - from), Double(to - 1 - n)) / fade
                    let gain = edge >= 1 ? 1 : Float(0.5 - 0.5 * cos(.pi * max(0, edge)))
                    track[n] = gain * sample(mono, at: Double(n) * ratio)
                }
            }
            out.append((person, track))
        }
        return out
    }

    /// Catmull-Rom interpolation between samples (the voice is band-limited well below 24 kHz).
    static func sample(_ x: [Float], at position: Double) -> Float {
        let i = Int(position.rounded(.down))
        let f = Float(position - Double(i))
        func at(_ k: Int) -> Float { k >= 0 && k < x.count ? x[k] : 0 }
        let p0 = at(i - 1)
        let p1 = at(i)
        let p2 = at(i + 1)
        let p3 = at(i + 2)
        return p1 + 0.5 * f * (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 + f * (3 * (p1 - p2) + p3 - p0)))
    }

    /// One line spoken by espeak-ng, resampled to 48 kHz, with a short pause at the end.
    static func speech(text: String, voice: String, espeak: String) throws(AudioError) -> [Float] {
        guard FileManager.default.isExecutableFile(atPath: espeak) else {
            throw AudioError(
                "\(espeak) not found: install espeak-ng (Scripts/setup does) to give generated scenes their speech")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opendock-speech-\(UUID().uuidString).wav"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: espeak)
        process.arguments = ["-v", voice, "-s", "165", "-w", path, text]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw AudioError("cannot run \(espeak): \(error.localizedDescription)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw AudioError("espeak-ng failed (status \(process.terminationStatus)) for voice \(voice)")
        }
        let clip = try WAVFile.read(path: path)
        let ratio = clip.sampleRate / sampleRate
        let count = Int(Double(clip.frameCount) / ratio)
        return (0..<count).map { sample(clip.channels[0], at: Double($0) * ratio) }
            + [Float](repeating: 0, count: Int(0.3 * sampleRate))
    }
}
