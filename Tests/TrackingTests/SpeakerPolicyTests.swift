import DockCore
import Foundation
import TestSupport
import Testing

@testable import Tracking

/// The speaker policy on scripted speech with a manual clock (0.05 s steps).
@Suite(.tags(.unit)) struct SpeakerPolicyTests {
    let a = UUID(), b = UUID(), listener = UUID()

    /// Runs the policy from 0 to `until` s; `speaker(t)` says who speaks. Returns the choices over time.
    func run(
        until end: Double, fallback: UUID? = nil, policy: inout SpeakerSelectionPolicy,
        speaker: (Double) -> UUID?
    ) -> [(Double, [UUID])] {
        var out: [(Double, [UUID])] = []
        var t = 0.0
        while t <= end + 1e-9 {
            let who = speaker(t)
            let speaking = [a: who == a ? 1.0 : 0, b: who == b ? 1.0 : 0, listener: 0]
            out.append((t, policy.update(at: MonotonicInstant(seconds: t), speaking: speaking, fallback: fallback)))
            t += 0.05
        }
        return out
    }

    /// Two people heard alike (the same bearing, before lips tell them apart): the framed one
    /// keeps the camera however long the other seems to speak; a clearer challenger still wins.
    @Test func aSpeakerHeardAsClearlyAsTheChallengerKeepsTheCamera() {
        var policy = SpeakerSelectionPolicy()
        var t = 0.0
        var choices: [[UUID]] = []
        while t <= 8 {
            // a alone for 2 s, then both equally for 4 s, then b clearly louder.
            let speaking: [UUID: Double] = t < 2 ? [a: 1, b: 0] : t < 6 ? [a: 0.9, b: 0.9] : [a: 0.5, b: 0.95]
            choices.append(policy.update(at: MonotonicInstant(seconds: t), speaking: speaking, fallback: nil))
            t += 0.05
        }
        #expect(choices[10..<120].allSatisfy { $0 == [a] })
        #expect(choices.last == [b] && policy.switches == 1)
    }

    @Test func aCoughDoesNotSwitch() {
        var policy = SpeakerSelectionPolicy()
        // A 0.35 s cough from b while a pauses.
        let choices = run(until: 8, policy: &policy) { t in (5.0..<5.35).contains(t) ? self.b : (t < 8 ? self.a : nil) }
        #expect(choices.filter { $0.0 > 1 }.allSatisfy { $0.1 == [a] })
        #expect(policy.switches == 0)
    }

    @Test func aPauseDoesNotSwitchButSilenceFallsBack() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 12, fallback: listener, policy: &policy) { t in
            (t < 3 || (5...6).contains(t)) ? self.a : nil  // a 2 s pause, then silence from 6 s
        }
        #expect(choices.filter { $0.0 >= 1 && $0.0 <= 9 }.allSatisfy { $0.1 == [a] })
        #expect(choices.last?.1 == [listener])  // 3 s after the last word
        #expect(choices.first { $0.0 > 9 && $0.1 == [listener] }.map { $0.0 < 9.2 } == true)
    }

    @Test func aRealHandOverSwitchesOnce() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 10, fallback: listener, policy: &policy) { t in t < 4 ? self.a : self.b }
        let confirmation = policy.configuration.confirmation
        #expect(choices.first { $0.1 == [a] }.map { $0.0 <= confirmation + 0.05 } == true)
        let moved = choices.first { $0.1 == [b] }
        #expect(
            moved.map { $0.0 >= 4 + confirmation - 1e-9 && $0.0 <= 4 + confirmation + 0.1 } == true,
            "\(String(describing: moved?.0))")
        #expect(choices.filter { $0.0 > 4.7 }.allSatisfy { $0.1 == [b] })
        #expect(policy.switches == 2)  // listener → a, a → b
    }

    @Test func twoPeopleAlternatingEverySecondDoNotCausePingPong() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 30, policy: &policy) { t in Int(t) % 2 == 0 ? self.a : self.b }
        var changes = 0
        for (previous, next) in zip(choices, choices.dropFirst()) where previous.1 != next.1 && !previous.1.isEmpty {
            changes += 1
        }
        #expect(changes <= 2, "\(changes) changes")
        #expect(Set(choices.last!.1) == [a, b])  // framed together
        #expect(choices.filter { $0.0 > 8 }.allSatisfy { Set($0.1) == [a, b] })
    }

    @Test func withoutGroupFramingAlternationStillRespectsTheDwell() {
        var configuration = SpeakerPolicyConfiguration()
        configuration.groupTurns = 0
        var policy = SpeakerSelectionPolicy(configuration: configuration)
        let choices = run(until: 30, policy: &policy) { t in Int(t) % 2 == 0 ? self.a : self.b }
        var times: [Double] = []
        for (previous, next) in zip(choices, choices.dropFirst()) where previous.1 != next.1 && !previous.1.isEmpty {
            times.append(next.0)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 2 - 1e-9 }, "\(times)")
    }
}

@Suite(.tags(.unit)) struct SpeakerEvidenceTests {
    @Test func speechIsAttributedByDirection() {
        let left = UUID()
        let right = UUID()
        var evidence = SpeakerEvidence()
        let people = [(uuid: left, angle: -0.25), (uuid: right, angle: 0.25)]
        for _ in 0..<50 {
            evidence.update(speech: true, direction: 0.24, coherence: 0.5, people: people, seconds: 0.02)
        }
        #expect((evidence.speakingConfidence(right) ?? 0) > 0.9 && (evidence.speakingConfidence(left) ?? 1) < 0.01)
        // Silence: confidence decays with the time constant (1 s ≈ 3.3 τ → below 5 %).
        for _ in 0..<50 {
            evidence.update(speech: false, direction: nil, coherence: nil, people: people, seconds: 0.02)
        }
        #expect((evidence.speakingConfidence(right) ?? 1) < 0.05)
        // Speech with no direction (one microphone) is attributed to nobody.
        for _ in 0..<50 { evidence.update(speech: true, direction: nil, coherence: nil, people: people, seconds: 0.02) }
        #expect((evidence.speakingConfidence(right) ?? 1) < 0.05)
    }
}
