import DockCore
import Foundation
import TestSupport
import Testing

@testable import Tracking

/// The speaker policy on scripted speech with a manual clock (0.05 s steps).
@Suite(.tags(.unit)) struct SpeakerPolicyTests {
    let a = UUID(), b = UUID(), listener = UUID()

    /// One 0.05 s step: `speaking` as the evidence would give it, the utterances fed with whoever
    /// is heard (at or above the policy's threshold) in the step.
    func step(
        _ policy: inout SpeakerSelectionPolicy, _ utterances: inout Utterances, at t: Double,
        speaking: [UUID: Double], fallback: UUID?
    ) -> [UUID] {
        let heard = Set(speaking.filter { $0.value >= policy.configuration.speakingThreshold }.keys)
        utterances.hear(heard, for: 0.05)
        return policy.update(
            at: MonotonicInstant(seconds: t), speaking: speaking, uttered: utterances, fallback: fallback)
    }

    /// Runs the policy from 0 to `until` s with `levels(t)` as each person's speakingConfidence.
    /// Returns the choices over time.
    func run(
        until end: Double, fallback: UUID? = nil, policy: inout SpeakerSelectionPolicy,
        levels: (Double) -> [UUID: Double]
    ) -> [(Double, [UUID])] {
        var out: [(Double, [UUID])] = []
        var utterances = Utterances()
        var t = 0.0
        while t <= end + 1e-9 {
            out.append((t, step(&policy, &utterances, at: t, speaking: levels(t), fallback: fallback)))
            t += 0.05
        }
        return out
    }

    /// Runs the policy from 0 to `until` s; `speaker(t)` says who speaks.
    func run(
        until end: Double, fallback: UUID? = nil, policy: inout SpeakerSelectionPolicy,
        speaker: (Double) -> UUID?
    ) -> [(Double, [UUID])] {
        run(until: end, fallback: fallback, policy: &policy) { t in
            let who = speaker(t)
            return [a: who == a ? 1.0 : 0, b: who == b ? 1.0 : 0, listener: 0]
        }
    }

    /// Two people heard alike (the same bearing, before lips tell them apart): the framed one
    /// keeps the camera however long the other seems to speak; a clearer challenger still wins.
    @Test func aSpeakerHeardAsClearlyAsTheChallengerKeepsTheCamera() {
        var policy = SpeakerSelectionPolicy()
        // a alone for 2 s, then both equally for 4 s, then b clearly louder.
        let choices = run(until: 8, policy: &policy) { t in
            t < 2 ? [self.a: 1, self.b: 0] : t < 6 ? [self.a: 0.9, self.b: 0.9] : [self.a: 0.5, self.b: 0.95]
        }.map(\.1)
        #expect(choices[10..<120].allSatisfy { $0 == [a] })
        #expect(choices.last == [b] && policy.switches == 1)
    }

    /// After a pause, both start again heard alike but only faintly yet (the lips not read so
    /// far): the framed one keeps the camera, however soon the other is confirmed.
    @Test func aFaintTieAfterAPauseDoesNotHandTheCameraOver() {
        var policy = SpeakerSelectionPolicy()
        // a alone for 2 s, silence for 1.5 s, then both at 0.5.
        let choices = run(until: 6, policy: &policy) { t in
            t < 2 ? [self.a: 1, self.b: 0] : t < 3.5 ? [self.a: 0, self.b: 0] : [self.a: 0.5, self.b: 0.5]
        }.map(\.1)
        #expect(choices[10...].allSatisfy { $0 == [a] })
        #expect(policy.switches == 0)
    }

    /// A turn that opens with one word and a breath is one utterance: the camera moves once the
    /// talk goes on, without waiting for a fresh confirmation after the breath.
    @Test func aTurnOpeningWithAWordAndABreathIsConfirmedAsOne() {
        var policy = SpeakerSelectionPolicy()
        // a for 4 s; b says a 0.3 s word at 4, breathes 0.6 s, and goes on from 4.9.
        let choices = run(until: 8, policy: &policy) { t in
            t < 4 ? self.a : (t < 4.3 || t >= 4.9) ? self.b : nil
        }
        let moved = choices.first { $0.1 == [b] }
        // 0.3 s + 0.1 s heard: at about 4.95 s, where counting afresh from 4.9 s would wait to 5.3.
        #expect(moved.map { $0.0 <= 5.05 && $0.0 >= 4.9 } == true, "\(String(describing: moved?.0))")
        #expect(policy.switches == 1)  // a → b (the first framing is no switch)
    }

    /// `framedHeard` says whether someone framed is heard now (the fallback too): a search for
    /// a voice nobody tracks ends on it.
    @Test func framedHeardFollowsWhoeverIsFramed() {
        var policy = SpeakerSelectionPolicy()
        var utterances = Utterances()
        var heardAt: [Double: Bool] = [:]
        var t = 0.0
        while t <= 4 {
            // listener framed as the fallback and silent; b talks 1–2 s; the listener 3–4 s.
            let speaking: [UUID: Double] = [
                listener: t >= 3 ? 1 : 0, b: (1..<2).contains(t) ? 1 : 0,
            ]
            _ = step(&policy, &utterances, at: t, speaking: speaking, fallback: listener)
            heardAt[(t * 100).rounded() / 100] = policy.framedHeard
            t += 0.05
        }
        #expect(heardAt[0.5] == false)
        #expect(heardAt[1.2] == false)  // b is heard, but not framed yet
        #expect(heardAt[1.8] == true)  // b framed and heard
        #expect(heardAt[2.8] == false)  // b framed, silent
        #expect(heardAt[3.9] == true)
    }

    /// The person framed without speech (the fallback) who turns out to be the only one talking
    /// is followed as the speaker: the next change is a turn, and after two turns within the
    /// group window the two are framed together rather than switched between again.
    @Test func theFallbackWhoTalksIsFollowedSoTheNextChangeIsATurn() {
        var policy = SpeakerSelectionPolicy()
        // a (the fallback) 0–5 s, b 5–10, a 10–14, b 14–18: the two-people scene's turns.
        let choices = run(until: 18, fallback: a, policy: &policy) { t in
            t < 5 || (10..<14).contains(t) ? self.a : self.b
        }
        #expect(choices.filter { $0.0 < 5 }.allSatisfy { $0.1 == [a] })
        #expect(choices.filter { $0.0 > 5.5 && $0.0 < 10 }.allSatisfy { $0.1 == [b] })
        #expect(choices.filter { $0.0 > 10.5 }.allSatisfy { Set($0.1) == [a, b] })
        #expect(policy.switches == 2)
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
            moved.map { $0.0 >= 4 + confirmation - 0.05 - 1e-9 && $0.0 <= 4 + confirmation + 0.1 } == true,
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

    /// People too far apart to frame together are never grouped: quick turns then switch, no
    /// faster than the dwell allows.
    @Test func peopleWhoDoNotFitTheViewAreNotGrouped() {
        var policy = SpeakerSelectionPolicy()
        var utterances = Utterances()
        var choices: [[UUID]] = []
        var t = 0.0
        while t <= 30 {
            let who = Int(t) % 2 == 0 ? a : b
            let speaking = [a: who == a ? 1.0 : 0, b: who == b ? 1.0 : 0]
            utterances.hear([who], for: 0.05)
            choices.append(
                policy.update(
                    at: MonotonicInstant(seconds: t), speaking: speaking, uttered: utterances, fallback: nil,
                    fits: { $0.count < 2 }))
            t += 0.05
        }
        #expect(choices.allSatisfy { $0.count <= 1 })
        #expect(policy.switches >= 3)  // it does follow, one person at a time
    }

    /// Two people trading quick turns are framed together; when one then holds the floor, the
    /// camera goes back to them alone, once, after `floorHold` seconds.
    @Test func oneWhoHoldsTheFloorIsFramedAloneAgain() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 24, policy: &policy) { t in t < 10 ? (Int(t) % 2 == 0 ? self.a : self.b) : self.a }
        #expect(choices.contains { $0.0 < 10 && Set($0.1) == [a, b] })
        let alone = choices.first { $0.0 >= 10 && $0.1 == [a] }
        // a talks alone from 10 s: the group holds until a has had the floor for 6 s.
        #expect(
            alone.map { $0.0 >= 10 + policy.configuration.floorHold - 0.1 && $0.0 <= 17.5 } == true,
            "\(String(describing: alone?.0))")
        #expect(choices.filter { $0.0 > 17.5 }.allSatisfy { $0.1 == [a] })
    }

    /// The person framed anyway (the fallback) and another heard alike, before the lips say
    /// which: the fallback keeps the camera; the other takes it once heard plainly better.
    @Test func aFallbackHeardAsWellAsTheChallengerKeepsTheCamera() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 6, fallback: a, policy: &policy) { t in
            t < 1 ? [self.a: 0, self.b: 0] : t < 3 ? [self.a: 0.9, self.b: 0.9] : [self.a: 0.2, self.b: 0.95]
        }
        #expect(choices.filter { $0.0 < 3 }.allSatisfy { $0.1 == [a] })
        #expect(choices.last?.1 == [b])
    }

    /// Both fall quiet after a tie: the one framed is not replaced by someone fainter in the pause.
    @Test func aFainterChallengerDoesNotTakeTheCameraInAPause() {
        var policy = SpeakerSelectionPolicy()
        let choices = run(until: 8, policy: &policy) { t in
            t < 2
                ? [self.a: 1, self.b: 0]
                : t < 5
                    ? [self.a: 0.95, self.b: 0.9] : t < 5.4 ? [self.a: 0.35, self.b: 0.2] : [self.a: 0, self.b: 0]
        }
        #expect(choices.filter { $0.0 > 1 }.allSatisfy { $0.1 == [a] })
        #expect(policy.switches == 0)
    }

    /// A conversation under way at the first turn: the one framed anyway said a word of their
    /// own a moment ago, too short to follow, and the other answers: both are framed at once, so
    /// the camera does not swing to the answer and back when the first speaks again. Should the
    /// answer hold the floor, the camera narrows to them.
    @Test func aWordAnsweredIsAnExchangeFramedTogether() {
        var policy = SpeakerSelectionPolicy()
        // a (the fallback) says a word at 1 s; b talks 2–3 s; a answers 3.2–4; b talks on from 4.5.
        let choices = run(until: 12, fallback: a, policy: &policy) { t in
            let who: UUID? =
                (1...1.3).contains(t) ? self.a : (2...3).contains(t) || t >= 4.5 ? self.b : t >= 3.2 ? self.a : nil
            return [self.a: who == self.a ? 1.0 : 0, self.b: who == self.b ? 1.0 : 0]
        }
        #expect(!choices.contains { $0.1 == [b] && $0.0 < 10 })
        let together = choices.first { Set($0.1) == [a, b] }
        // b confirmed 0.4 s after 2 s.
        #expect(together.map { $0.0 < 2.6 } == true, "\(String(describing: together?.0))")
        #expect(choices.last?.1 == [b])  // b has held the floor since 4.5 s
    }

    /// Runs the policy from 0 to `until` s with a fixed `share` of recent speech; utterances are
    /// fed with whoever is at 0.3 or more. Returns the last choice and the switches.
    func withShare(
        _ share: [UUID: Double], until end: Double, unseen: Set<UUID> = [],
        fits: (Set<UUID>) -> Bool = { _ in true }, levels: (Double) -> [UUID: Double]
    ) -> (last: [UUID], switches: Int) {
        var policy = SpeakerSelectionPolicy()
        var utterances = Utterances()
        var last: [UUID] = []
        var t = 0.0
        while t <= end + 1e-9 {
            let speaking = levels(t)
            utterances.hear(Set(speaking.filter { $0.value >= 0.3 }.keys), for: 0.05)
            last = policy.update(
                at: MonotonicInstant(seconds: t), speaking: speaking, uttered: utterances, fallback: nil,
                fits: fits, share: share, unseen: unseen)
            t += 0.05
        }
        return (last, policy.switches)
    }

    /// Overlapped speech heard alike from both (the challenger a little louder): the framed one
    /// who has said most lately keeps the camera.
    @Test func theFramedTalkerWithTheLargerShareKeepsTheCamera() {
        func run(share: [UUID: Double]) -> (last: [UUID], switches: Int) {
            withShare(share, until: 8) { t in t < 3 ? [self.a: 1, self.b: 0] : [self.a: 0.6, self.b: 0.9] }
        }
        let kept = run(share: [a: 0.6, b: 0.4])
        #expect(kept.last == [a] && kept.switches == 0)
        // Without the share the louder challenger takes over.
        let taken = run(share: [:])
        #expect(taken.last.contains(b) && taken.switches == 1)
    }

    /// The framed talker trails off (heard below the threshold, but still in their utterance)
    /// while typing is heard louder for a moment where someone out of the picture sits: with
    /// the larger share of the recent speech they keep the camera; once their utterance has
    /// ended the other may take it. Someone in the picture is not held off.
    @Test func aFramedTalkerTrailingOffKeepsTheCameraFromALouderSoundOutOfThePicture() {
        func run(share: [UUID: Double], until end: Double = 4.5, unseen: Bool = true) -> (last: [UUID], switches: Int) {
            withShare(share, until: end, unseen: unseen ? [b] : []) { t in
                t < 3 ? [self.a: 1, self.b: 0] : t < 4.5 ? [self.a: 0.3, self.b: 0.5] : [self.a: 0, self.b: 0.9]
            }
        }
        let kept = run(share: [a: 0.6, b: 0.3])
        #expect(kept.last == [a] && kept.switches == 0)
        let taken = run(share: [:])
        #expect(taken.last == [b] && taken.switches == 1)
        // a falls silent at 4.5 s: b takes the camera once a's utterance is over.
        let after = run(share: [a: 0.6, b: 0.3], until: 6)
        #expect(after.last == [b] && after.switches == 1)
        let inPicture = run(share: [a: 0.6, b: 0.3], unseen: false)
        #expect(inPicture.last == [b] && inPicture.switches == 1)
    }

    /// The same trailing talker in a conversation under way (the other had the floor a moment
    /// ago): the other's turn now frames both together, which keeps the talker in the picture,
    /// so it is not held off until the talker's utterance ends. Where the two do not fit the
    /// view together, it still is.
    @Test func aTurnThatWidensToAGroupPassesATalkerTrailingOff() {
        func run(fits: Bool) -> [UUID] {
            withShare(
                [a: 0.6, b: 0.3], until: 5.6, unseen: [b], fits: { _ in fits },
                levels: { t in
                    t < 2 ? [self.a: 0, self.b: 1] : t < 5 ? [self.a: 1, self.b: 0] : [self.a: 0.3, self.b: 0.5]
                }
            ).last
        }
        #expect(Set(run(fits: true)) == [a, b])
        #expect(run(fits: false) == [a])
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

    /// Each window's speech goes to the person in its direction (within two spreads), to both of
    /// two people it cannot tell apart, to nobody far from everyone, and never to someone hidden
    /// behind the one seen there; the utterances add it up window by window.
    @Test func eachWindowIsAttributedToWhoeverIsInItsDirection() {
        let left = UUID()
        let right = UUID()
        let behind = UUID()
        let degree = Double.pi / 180
        let people = [(uuid: left, angle: -10 * degree), (uuid: right, angle: 10 * degree)]
        func heard(_ direction: Double, people: [(uuid: UUID, angle: Double)], hidden: Set<UUID> = []) -> Set<UUID> {
            var evidence = SpeakerEvidence()
            for _ in 0..<10 {
                evidence.update(
                    speech: true, direction: direction * degree, coherence: 0.5, people: people, hidden: hidden,
                    seconds: 0.02)
            }
            let all = evidence.utterances.all
            #expect(all.values.allSatisfy { abs($0 - 0.2) < 1e-9 }, "\(all)")
            #expect(evidence.attributed == Set(all.keys))
            return Set(all.keys)
        }
        #expect(heard(3, people: people) == [right])  // 7° from the right, 13° from the left
        #expect(heard(0, people: people) == [left, right])  // half way: either
        #expect(heard(45, people: people).isEmpty)  // nobody there
        let stacked = people + [(uuid: behind, angle: 10.5 * degree)]
        #expect(heard(10, people: stacked, hidden: [behind]) == [right])
        #expect(heard(10, people: stacked) == [right, behind])
    }
}

@Suite(.tags(.unit)) struct UtterancesTests {
    @Test func pausesBetweenPhrasesKeepAnUtteranceAndSilenceEndsIt() {
        let a = UUID()
        let b = UUID()
        var utterances = Utterances()
        for _ in 0..<15 { utterances.hear([a], for: 0.02) }  // a word of 0.3 s
        for _ in 0..<30 { utterances.hear([], for: 0.02) }  // a breath of 0.6 s
        #expect(abs(utterances.heard(a) - 0.3) < 1e-9)
        for _ in 0..<5 { utterances.hear([a, b], for: 0.02) }
        #expect(abs(utterances.heard(a) - 0.4) < 1e-9 && abs(utterances.heard(b) - 0.1) < 1e-9)
        for _ in 0..<38 { utterances.hear([], for: 0.02) }  // 0.76 s: longer than the gap
        #expect(utterances.heard(a) == 0 && utterances.all.isEmpty)
    }
}

@Suite(.tags(.unit)) struct SpeakerEvidenceCarryTests {
    let left = UUID(), right = UUID()
    var people: [(uuid: UUID, angle: Double)] { [(left, -0.3), (right, 0.3)] }

    /// Between syllables the front end says "speech" with no clear direction: a steady speaker
    /// keeps the credit for `carrySeconds`, no longer.
    @Test func aSteadySpeakerIsCarriedAcrossWindowsWithoutDirection() {
        var evidence = SpeakerEvidence()
        for _ in 0..<10 { evidence.update(speech: true, direction: 0.3, coherence: 0.8, people: people, seconds: 0.02) }
        #expect(evidence.attributed == [right])
        for _ in 0..<10 { evidence.update(speech: true, direction: nil, coherence: nil, people: people, seconds: 0.02) }
        #expect(evidence.attributed == [right])  // 0.2 s: carried
        for _ in 0..<10 { evidence.update(speech: true, direction: nil, coherence: nil, people: people, seconds: 0.02) }
        #expect(evidence.attributed.isEmpty)  // 0.4 s: no longer
    }

    /// A room's reflection: in the middle of a steady talker's speech a clear window points
    /// where nobody sits. It is carried as a window without a direction is; after silence it
    /// is nobody's.
    @Test func aVoiceFromWhereNobodySitsIsCarriedForASteadyTalker() {
        var evidence = SpeakerEvidence()
        for _ in 0..<10 { evidence.update(speech: true, direction: 0.3, coherence: 0.8, people: people, seconds: 0.02) }
        evidence.update(speech: true, direction: 1.0, coherence: 0.8, people: people, seconds: 0.02)
        #expect(evidence.attributed == [right])
        for _ in 0..<20 { evidence.update(speech: true, direction: 1.0, coherence: 0.8, people: people, seconds: 0.02) }
        #expect(evidence.attributed.isEmpty)  // longer than the carry: nobody's
        evidence.update(speech: false, direction: nil, coherence: nil, people: people, seconds: 0.02)
        evidence.update(speech: true, direction: 1.0, coherence: 0.8, people: people, seconds: 0.02)
        #expect(evidence.attributed.isEmpty)
        #expect(evidence.utterances.heard(right) > 0.2)  // the carried windows count as the talker's
    }

    /// A word's reverberant tail: two clear windows land near the other person, then the
    /// directions scatter. Two windows are too short a run to carry against a direction.
    @Test func aTailOfTwoWindowsNearSomeoneElseIsNotCarried() {
        var evidence = SpeakerEvidence()
        for _ in 0..<10 {
            evidence.update(speech: true, direction: -0.3, coherence: 0.8, people: people, seconds: 0.02)
        }
        for _ in 0..<2 { evidence.update(speech: true, direction: 0.3, coherence: 0.8, people: people, seconds: 0.02) }
        evidence.update(speech: true, direction: 1.0, coherence: 0.8, people: people, seconds: 0.02)
        #expect(evidence.attributed.isEmpty)
        evidence.update(speech: true, direction: nil, coherence: nil, people: people, seconds: 0.02)
        #expect(evidence.attributed.isEmpty)  // nor across the windows without a direction after it
    }

    /// One clear window after another speaker's is a lone reflection, not a steady talker: it
    /// is not carried.
    @Test func aLoneClearWindowIsNotCarried() {
        var evidence = SpeakerEvidence()
        for _ in 0..<10 { evidence.update(speech: true, direction: 0.3, coherence: 0.8, people: people, seconds: 0.02) }
        evidence.update(speech: true, direction: -0.3, coherence: 0.8, people: people, seconds: 0.02)
        evidence.update(speech: true, direction: nil, coherence: nil, people: people, seconds: 0.02)
        #expect(evidence.attributed.isEmpty)
    }
}
