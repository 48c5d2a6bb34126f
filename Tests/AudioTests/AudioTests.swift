import DockCore
import Foundation
import TestSupport
import Testing

@testable import Audio

@Suite(.tags(.unit)) struct GCCPHATTests {
    /// White noise reaching the right microphone first by a known fractional delay: recovered
    /// within a quarter of a sample (one sample at 48 kHz is the bar; parabolic interpolation on
    /// the sharp PHAT peak is biased by about a tenth).
    @Test(arguments: [-11.3, -4.5, -0.7, 0.0, 2.25, 6.8, 12.0])
    func recoversAKnownDelay(_ delay: Double) throws {
        var random = SeededGenerator(seed: 7)
        let source = (0..<4800).map { _ in Float.random(in: -0.5...0.5, using: &random) }
        let left = FractionalDelay.delayed(source, by: max(0, delay))
        let right = FractionalDelay.delayed(source, by: max(0, -delay))
        let found = try #require(GCCPHAT.delay(left: left[1000..<3000], right: right[1000..<3000], maxLag: 20))
        #expect(abs(found.samples - delay) < 0.25, "\(found)")
        #expect(found.peak > 0.3)
    }

    @Test func directionFromDelayAndBack() {
        let array = MicrophoneArray(spacing: 0.15, mounting: .room)
        for degrees in [-60.0, -14, 0, 9, 45] {
            let angle = degrees * .pi / 180
            #expect(abs(array.angle(forDelay: array.delay(forAngle: angle)) - angle) < 1e-12)
        }
        #expect(array.angle(forDelay: 1) == .pi / 2)  // impossible delays clamp to the end-fire direction
        #expect(GCCPHAT.delay(left: [1, 2, 3], right: [1, 2, 3], maxLag: 2) == nil)
    }
}

@Suite(.tags(.unit)) struct VoiceActivityTests {
    /// A quiet hiss, then a voiced 150 Hz tone with harmonics for 0.5 s, then the hiss again.
    @Test func voicedBurstOverHissIsSpeechWithHangover() throws {
        var random = SeededGenerator(seed: 3)
        let rate = 48000.0
        let samples: [Float] = (0..<Int(rate * 1.5)).map { n in
            let t = Double(n) / rate
            let hiss = Float.random(in: -0.003...0.003, using: &random)
            guard t >= 0.5 && t < 1.0 else { return hiss }
            let voice = (1...5).reduce(0.0) { $0 + sin(2 * .pi * 150 * Double($1) * t) / Double($1) }
            return hiss + Float(0.2 * voice)
        }
        var analyzer = try SpeechAnalyzer(clip: AudioClip(sampleRate: rate, channels: [samples]))
        let decisions = analyzer.windows(until: MonotonicInstant(seconds: 1.5)).map { ($0.time.seconds, $0.isSpeech) }
        #expect(decisions.filter { $0.0 < 0.5 }.allSatisfy { !$0.1 })
        #expect(decisions.filter { $0.0 > 0.52 && $0.0 < 1.0 }.allSatisfy { $0.1 })
        #expect(decisions.filter { $0.0 > 1.0 && $0.0 < 1.2 }.allSatisfy { $0.1 })  // hangover
        #expect(decisions.filter { $0.0 > 1.3 }.allSatisfy { !$0.1 })
    }

    /// Loud broadband noise (a fan switched on) is not speech: it has no pitch.
    @Test func loudHissIsNotSpeech() throws {
        var random = SeededGenerator(seed: 5)
        let quiet = (0..<48000).map { _ in Float.random(in: -0.002...0.002, using: &random) }
        let loud = (0..<48000).map { _ in Float.random(in: -0.3...0.3, using: &random) }
        var analyzer = try SpeechAnalyzer(clip: AudioClip(sampleRate: 48000, channels: [quiet + loud]))
        let windows = analyzer.windows(until: MonotonicInstant(seconds: 2))
        #expect(windows.count > 90 && !windows.contains(where: \.isSpeech))
    }
}

@Suite(.tags(.unit)) struct WAVFileTests {
    @Test func stereoRoundTripAndRefusals() throws {
        let clip = AudioClip(sampleRate: 48000, channels: [[0, 0.5, -0.5, 0.25], [0.1, -1, 0.999, 0]])
        let path = Fixtures.temporaryDirectory("wav") + "/a.wav"
        try WAVFile.write(clip, to: path)
        let back = try WAVFile.read(path: path)
        #expect(back.sampleRate == 48000 && back.channels.count == 2 && back.frameCount == 4)
        for c in 0..<2 { for n in 0..<4 { #expect(abs(back.channels[c][n] - clip.channels[c][n]) < 1.0 / 16384) } }
        #expect { try WAVFile.read(path: "/nonexistent.wav") } throws: {
            ($0 as? AudioError)?.message.contains("does it exist") == true
        }
        try Data("RIFF0000WAVEjunk".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try WAVFile.read(path: path) } throws: {
            ($0 as? AudioError)?.message.contains("no data chunk") == true
        }
        let low = AudioClip(sampleRate: 8000, channels: [[0, 0]])
        #expect { try SpeechAnalyzer(clip: low) } throws: {
            ($0 as? AudioError)?.message.contains("too coarse") == true
        }
    }
}

@Suite(.tags(.unit)) struct MicrophoneCheckTests {
    func block(_ channels: [[Float]], rate: Double = 48000, at index: Int) -> AudioBlock {
        AudioBlock(
            channels: channels, sampleRate: rate,
            start: MonotonicInstant.zero.advanced(bySeconds: Double(index * channels[0].count) / rate), sequence: index)
    }

    func noise(_ count: Int, level: Float, random: inout SeededGenerator) -> [Float] {
        (0..<count).map { _ in Float.random(in: -level...level, using: &random) }
    }

    @Test func aHealthyMicrophoneRaisesNothing() {
        var check = MicrophoneCheck()
        var random = SeededGenerator(seed: 3)
        var found: [MicrophoneProblem] = []
        for i in 0..<250 {
            found += check.inspect(
                block([noise(960, level: 0.3, random: &random), noise(960, level: 0.3, random: &random)], at: i))
        }
        #expect(found.isEmpty)
    }

    @Test func silenceForTwoSecondsIsReportedOnce() {
        var check = MicrophoneCheck()
        var found: [(Int, MicrophoneProblem)] = []
        for i in 0..<250 {
            found += check.inspect(
                block([[Float](repeating: 0, count: 960), [Float](repeating: 0, count: 960)], at: i)
            )
            .map { (i, $0) }
        }
        #expect(found.count == 1 && found[0].0 == 99)  // the 100th 20 ms block ends the second second
        #expect(found.first?.1.message(device: "hw:1").hasPrefix("microphone 'hw:1' gives only silence (2 s") == true)
    }

    @Test func clippingIsReportedWithItsShare() throws {
        var check = MicrophoneCheck()
        var random = SeededGenerator(seed: 5)
        var found: [MicrophoneProblem] = []
        for i in 0..<100 {
            // 39 + 20 of each 1920 samples (3 %) pinned at full scale.
            var left = noise(960, level: 0.3, random: &random)
            for n in stride(from: 0, to: 960, by: 25) { left[n] = 1 }
            var right = noise(960, level: 0.3, random: &random)
            for n in stride(from: 0, to: 960, by: 50) { right[n] = -1 }
            found += check.inspect(block([left, right], at: i))
        }
        let problem = try #require(found.first)
        guard case .clipping(let share) = problem, found.count == 1 else {
            Issue.record("\(found)")
            return
        }
        #expect(abs(share - 59.0 / 1920) < 1e-9)
        #expect(problem.message(device: "cam").contains("(3 % of samples at full scale)"))
    }

    /// A mono microphone on a stereo device: reported, and the analyzer takes no direction from it.
    @Test func identicalChannelsAreMonoAndGiveNoDirection() throws {
        var check = MicrophoneCheck()
        var random = SeededGenerator(seed: 9)
        var found: [MicrophoneProblem] = []
        var analyzer = try SpeechAnalyzer(sampleRate: 48000, channelCount: 2)
        var windows: [AudioWindow] = []
        for i in 0..<100 {
            let t0 = Double(i * 960) / 48000
            let voice: [Float] = (0..<960).map { n in
                let t = t0 + Double(n) / 48000
                let phase = 130 * t
                return i < 20 ? 0 : Float(0.2 * (2 * (phase - phase.rounded(.down)) - 1))
            }
            let hiss = noise(960, level: 0.003, random: &random)
            let same = zip(voice, hiss).map { $0 + $1 }
            let b = block([same, same], at: i)
            found += check.inspect(b)
            analyzer.append(b)
            windows += analyzer.windows(until: b.start.advanced(bySeconds: b.duration))
        }
        #expect(found == [.identicalChannels])
        #expect(windows.contains(where: \.voiced) && windows.allSatisfy { $0.direction == nil })
    }
}
