import Bench
import Testing

/// The room figures from scripted frames: the grace, overlaps, framed changes, facing nobody.
@Suite(.tags(.unit)) struct SpeakerFramingTests {
    /// Ten frames a second: 1 talks for 3 s, then 2 for 3 s (overlapping 1's last 0.5 s); the
    /// camera stays on 1 until 1 s into 2's turn, looks at nobody for 0.5 s, then frames 2.
    @Test func graceOverlapAndFacingNobody() {
        let times = (0..<60).map { Double($0) / 10 }
        let speaking: [Set<Int>] = times.map { t in
            var s: Set<Int> = []
            if t < 3 { s.insert(1) }
            if t >= 2.5 { s.insert(2) }
            return s
        }
        let framed: [Set<Int>] = times.map { t in t < 4 ? [1] : t < 4.5 ? [] : [2] }
        let inPicture: [Set<Int>] = times.map { t in t < 4 ? [1] : t < 4.5 ? [] : [2] }
        let f = SpeakerFraming(times: times, framed: framed, speaking: speaking, inPicture: inPicture)
        // The overlap (2.5–3 s) keeps 1 as the speaker; 2 takes the floor at 3 s: one change.
        #expect(f.speakerChanges == 1 && f.framedChanges == 1 && f.changesPerSpeakerChange == 1)
        // Speaking frames 0–5.9 s: 60. Right: 0–3.9 s framed 1 (1 talks until 3, and 2.5–3.9
        // count as 1 or 2 talking with 1 framed: 0–2.9 has 1; 3.0–3.9 has only 2 talking) → 30
        // frames right through 2.9, 10 wrong (3.0–3.9), 5 nobody (4.0–4.4), 15 right (4.5–5.9).
        #expect(abs(f.rightSpeaker! - 45.0 / 60) < 1e-9, "\(f.rightSpeaker!)")
        // After the grace: 2's turn starts at 3.0; 3.0–4.4 left out: 45 counted, 45 right.
        #expect(f.rightSpeakerAfterGrace == 1, "\(f.rightSpeakerAfterGrace!)")
        // In the picture: 1 while 1 talks (30), nobody's speaker during 3.0–4.4 (15 out), 2 after (15).
        #expect(abs(f.speakerInPicture! - 45.0 / 60) < 1e-9, "\(f.speakerInPicture!)")
        // 0.5 s of 6 s facing nobody: 5 s a minute.
        #expect(abs(f.facingNobodyPerMinute! - 5) < 1e-9, "\(f.facingNobodyPerMinute!)")
    }

    /// A head that turns to the fan after every word is counted against every figure.
    @Test func turningAwayAfterEachTurnIsCounted() {
        let times = (0..<40).map { Double($0) / 10 }
        let speaking: [Set<Int>] = times.map { _ in [1] }
        let framed: [Set<Int>] = times.map { t in Int(t) % 2 == 0 ? [1] : [] }
        let f = SpeakerFraming(times: times, framed: framed, speaking: speaking, inPicture: framed)
        #expect(f.rightSpeaker == 0.5 && f.speakerInPicture == 0.5)
        #expect(abs(f.facingNobodyPerMinute! - 30) < 1e-9)
        #expect(f.speakerChanges == 0 && f.changesPerSpeakerChange == nil)
    }

    /// Leaving the one framed before anybody spoke for the first talker is a move the turn
    /// requires; framing the first talker already, or nobody, requires none.
    @Test func theFirstTurnRequiresAMoveOnlyFromSomeoneElse() {
        let times = (0..<40).map { Double($0) / 10 }
        let speaking: [Set<Int>] = times.map { t in t < 1 ? [] : t < 2.5 ? [1] : [2] }
        let fromFallback: [Set<Int>] = times.map { t in t < 1.5 ? [3] : t < 3 ? [1] : [2] }
        let f = SpeakerFraming(times: times, framed: fromFallback, speaking: speaking, inPicture: fromFallback)
        #expect(f.speakerChanges == 2 && f.framedChanges == 2 && f.changesPerSpeakerChange == 1)
        let onTheTalker: [Set<Int>] = times.map { t in t < 3 ? [1] : [2] }
        let g = SpeakerFraming(times: times, framed: onTheTalker, speaking: speaking, inPicture: onTheTalker)
        #expect(g.speakerChanges == 1 && g.framedChanges == 1)
        let onNobody: [Set<Int>] = times.map { t in t < 1.5 ? [] : t < 3 ? [1] : [2] }
        let h = SpeakerFraming(times: times, framed: onNobody, speaking: speaking, inPicture: onNobody)
        #expect(h.speakerChanges == 1 && h.framedChanges == 1)
        // Speech from the first frame, before anybody is framed: the first framing decides.
        let fromTheStart: [Set<Int>] = times.map { t in t < 2.5 ? [1] : [2] }
        let late: [Set<Int>] = times.map { t in t < 0.1 ? [] : t < 0.5 ? [3] : t < 3 ? [1] : [2] }
        let k = SpeakerFraming(times: times, framed: late, speaking: fromTheStart, inPicture: late)
        #expect(k.speakerChanges == 2 && k.framedChanges == 2)
        let direct: [Set<Int>] = times.map { t in t < 0.1 ? [] : t < 3 ? [1] : [2] }
        let m = SpeakerFraming(times: times, framed: direct, speaking: fromTheStart, inPicture: direct)
        #expect(m.speakerChanges == 1 && m.framedChanges == 1)
    }
}
