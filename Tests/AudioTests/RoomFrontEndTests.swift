import DockCore
import Foundation
import Testing

@testable import Audio

/// The front end in a room with a fan: the fan alone is not speech, and a voice beside it is
/// placed where it is, not pulled towards the fan.
@Suite(.tags(.unit)) struct RoomFrontEndTests {
    static let rate = 48000.0
    static let array = MicrophoneArray(spacing: 0.15, mounting: .room)

    /// A voiced vowel-like sound: harmonics of 140 Hz up to 4 kHz, opening and closing four times a second.
    static func voice(seconds: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { n in
            let t = Double(n) / rate
            let syllable = max(0, sin(2 * .pi * 4 * t))
            var s = 0.0
            for h in 1...28 { s += sin(2 * .pi * 140 * Double(h) * t + Double(h)) / Double(h) }
            return Float(0.1 * syllable * s)
        }
    }

    /// Broadband noise, low-pass tilted, the same everywhere in the run.
    static func fan(seconds: Double) -> [Float] {
        var random = SeededGenerator(seed: 11)
        var low = 0.0
        return (0..<Int(seconds * rate)).map { _ in
            low += 0.3 * (Double.random(in: -1...1, using: &random) - low)
            return Float(0.05 * low)
        }
    }

    /// Both channels of a source at `angle` (left behind right for a source to the right).
    static func heard(_ x: [Float], at angle: Double) -> (left: [Float], right: [Float]) {
        let delay = array.delay(forAngle: angle) * rate
        return (
            FractionalDelay.delayed(x, by: delay / 2, halfWidth: 8),
            FractionalDelay.delayed(x, by: -delay / 2, halfWidth: 8)
        )
    }

    @Test func aFanIsNotSpeechAndDoesNotPullTheVoice() throws {
        let seconds = 5.0
        let fan = Self.heard(Self.fan(seconds: seconds), at: -60 * .pi / 180)
        var voice = Self.heard(Self.voice(seconds: seconds), at: 20 * .pi / 180)
        // The voice starts after 2 s of fan alone.
        for n in 0..<Int(2 * Self.rate) {
            voice.left[n] = 0
            voice.right[n] = 0
        }
        let left = zip(fan.left, voice.left).map { $0 + $1 }
        let right = zip(fan.right, voice.right).map { $0 + $1 }
        var frontEnd = RoomFrontEnd(sampleRate: Self.rate, array: Self.array)
        var fanVoiced = 0
        var fanWindows = 0
        var directions: [Double] = []
        for start in stride(from: 0, to: left.count - 1920, by: 960) {
            let m = frontEnd.measure(left: left[start..<start + 1920], right: right[start..<start + 1920], stereo: true)
            let t = Double(start) / Self.rate
            if t > 0.5 && t < 1.95 {
                fanWindows += 1
                if m.voiced { fanVoiced += 1 }
            }
            if t > 2.5, let d = m.direction { directions.append(d * 180 / .pi) }
        }
        #expect(fanVoiced == 0, "\(fanVoiced) of \(fanWindows) fan-only windows called voiced")
        try #require(directions.count > 25, "\(directions.count) directions")
        directions.sort()
        let median = directions[directions.count / 2]
        #expect(abs(median - 20) < 2, "median direction \(median)°")
        let near = directions.filter { abs($0 - 20) < 5 }.count
        #expect(Double(near) / Double(directions.count) > 0.7, "\(near) of \(directions.count) within 5°")
    }
}
