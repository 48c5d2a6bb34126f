import DockCore
import Foundation
import TestSupport
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct LipActivityTests {
    @Test func swingOfTheOpeningOverTheWindow() {
        var lips = LipActivity(statistic: .variation, reference: 0.1)
        let talker = UUID()
        let listener = UUID()
        for n in 0..<30 {
            let t = MonotonicInstant(seconds: Double(n) / 30)
            lips.record(n % 4 < 2 ? 0.05 : 0.35, for: talker, at: t)  // opens and closes ~7 times a second
            lips.record(0.06 + (n % 2 == 0 ? 0.002 : -0.002), for: listener, at: t)
        }
        let now = MonotonicInstant(seconds: 29.0 / 30)
        let activity = lips.activity(at: now)
        #expect(activity[talker] == 1)  // a swing of 0.15 is more than the reference
        #expect((activity[listener] ?? 1) < 0.05)
        // Measures older than the window say nothing.
        #expect(lips.activity(at: MonotonicInstant(seconds: 2)).isEmpty)
        lips.forget(except: [talker])
        #expect(lips.activity(at: now).keys.sorted { $0.uuidString < $1.uuidString } == [talker])
    }

    @Test func levelAndTooFewSamples() {
        var lips = LipActivity(statistic: .level, reference: 0.01)
        let person = UUID()
        for n in 0..<4 { lips.record(0.004, for: person, at: MonotonicInstant(seconds: Double(n) * 0.1)) }
        #expect(lips.activity(at: MonotonicInstant(seconds: 0.3)).isEmpty)  // 4 < 5 samples
        lips.record(0.004, for: person, at: MonotonicInstant(seconds: 0.4))
        #expect(abs((lips.activity(at: MonotonicInstant(seconds: 0.4))[person] ?? 0) - 0.4) < 1e-9)
    }
}

@Suite(.tags(.unit)) struct SpeakerEvidenceLipsTests {
    let left = UUID(), right = UUID()

    func run(_ evidence: inout SpeakerEvidence, seconds: Double, direction: Double?, lips: [UUID: Double]) {
        for _ in 0..<Int(seconds / 0.02) {
            evidence.update(
                speech: true, direction: direction, coherence: direction == nil ? nil : 0.5,
                people: [(left, -0.02), (right, 0.02)], lips: lips, seconds: 0.02)
        }
    }

    /// Two people 2.3° apart, both where the sound comes from: the one whose lips move is the speaker.
    @Test func lipsDecideBetweenPeopleInTheSoundsDirection() {
        var evidence = SpeakerEvidence()
        run(&evidence, seconds: 1, direction: 0.02, lips: [left: 0.05, right: 0.9])
        #expect(evidence.speakingConfidence(right)! > 0.9)
        #expect(evidence.speakingConfidence(left)! < 0.4)
        // Without lip activity both take the credit, as before.
        var blind = SpeakerEvidence()
        run(&blind, seconds: 1, direction: 0.0, lips: [:])
        #expect(blind.speakingConfidence(right)! > 0.9 && blind.speakingConfidence(left)! > 0.9)
    }

    /// One microphone: no direction, so moving lips alone attribute the speech; still lips
    /// attribute nothing.
    @Test func withoutDirectionLipsAloneAttributeSpeech() {
        var evidence = SpeakerEvidence()
        run(&evidence, seconds: 1, direction: nil, lips: [left: 0.8, right: 0.1])
        #expect(evidence.speakingConfidence(left)! > 0.7)
        #expect(evidence.speakingConfidence(right)! < 0.01)
        var still = SpeakerEvidence()
        run(&still, seconds: 1, direction: nil, lips: [left: 0.1, right: 0.1])
        #expect(still.speakingConfidence(left)! < 0.01 && still.speakingConfidence(right)! < 0.01)
    }

    /// Someone tracked but hidden behind the person in the sound's direction (a crossing): the
    /// voice is the visible one's; alone in that direction, the hidden one keeps the credit.
    @Test func someoneHiddenBehindTheSpeakerTakesNoCredit() {
        var evidence = SpeakerEvidence()
        for _ in 0..<50 {
            evidence.update(
                speech: true, direction: 0, coherence: 0.5, people: [(left, -0.01), (right, 0.01)],
                hidden: [right], seconds: 0.02)
        }
        #expect(evidence.speakingConfidence(left)! > 0.9)
        #expect(evidence.speakingConfidence(right)! < 0.01)
        var alone = SpeakerEvidence()
        for _ in 0..<50 {
            alone.update(
                speech: true, direction: 0, coherence: 0.5, people: [(right, 0.01)], hidden: [right], seconds: 0.02)
        }
        #expect(alone.speakingConfidence(right)! > 0.9)
    }
}
