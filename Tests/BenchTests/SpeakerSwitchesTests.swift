import Bench
import DockCore
import Testing

/// Switch counting and switch latency on hand-built traces: frames every 0.1 s.
@Suite(.tags(.unit)) struct SpeakerSwitchesTests {
    /// One character a frame: the speaker ("1", "2", "3", "." for nobody).
    func speakers(_ script: String) -> [Int?] { script.map { $0 == "." ? nil : Int(String($0)) } }
    /// One character a frame: who is framed ("1", "2", "3", "-" for nobody, "g" for 1 and 2).
    func framed(_ script: String) -> [Set<Int>] {
        script.map { c in c == "-" ? [] : c == "g" ? [1, 2] : [Int(String(c))!] }
    }
    func switches(speakers s: String, framed f: String, quiet: Int? = 1) -> SpeakerSwitches {
        precondition(s.count == f.count)
        return SpeakerSwitches(
            times: (0..<s.count).map { Double($0) * 0.1 }, framed: framed(f), speakers: speakers(s),
            quietTargets: Array(repeating: quiet, count: s.count))
    }

    @Test func aRunThatFramesTheWrongPersonAfterEveryTurnCountsEveryFalseSwitch() {
        // Turns 1, 2, 1, 2; after each change of speaker the head slews (nobody framed) and lands
        // on someone who is not speaking: 3, then 2, then 1. Adjacent frames never show a change,
        // the held identity does.
        let s = switches(
            speakers: "11111222221111122222",
            framed: "111111--333--222--11")
        #expect(s.switches == 3 && s.falseSwitches == 3)
        #expect(s.latencies.count == 3 && s.latencies.allSatisfy { $0 == nil })
    }

    @Test func aSwitchThroughASlewToTheSpeakerIsRightAndItsLatencyRunsFromTheStartOfSpeech() {
        let s = switches(
            speakers: "1111122222222",
            framed: "11111111---22")
        #expect(s.switches == 1 && s.falseSwitches == 0)
        #expect(s.latencies.count == 1)
        #expect(s.latencies[0].map { abs($0 - 0.6) < 1e-9 } == true)
    }

    @Test func latencyIsToSettlingNotToTheFirstTouch() {
        // The head reaches 2 at frame 6, goes back to 1 at 7–8 (ping-pong), settles on 2 at 9.
        let s = switches(
            speakers: "111112222222",
            framed: "111111211222")
        #expect(s.switches == 3 && s.falseSwitches == 1)
        #expect(s.latencies[0].map { abs($0 - 0.4) < 1e-9 } == true)
    }

    @Test func aSpeakerFramedOnlyAfterTheyStoppedIsAMissedSwitch() {
        let s = switches(
            speakers: "11111222.....",
            framed: "1111111112222")
        #expect(s.latencies.count == 1 && s.latencies[0] == nil)
        // Framing 2 during the silence after they spoke is not false: they spoke last.
        #expect(s.switches == 1 && s.falseSwitches == 0)
    }

    @Test func inSilenceTheLastSpeakerOrTheQuietTargetIsRightAndAnyoneElseIsFalse() {
        // 2 speaks, then silence: the head stays on 2, goes to the quiet target 1, then to 3.
        let s = switches(
            speakers: "22222.........",
            framed: "22222222111333")
        #expect(s.switches == 2 && s.falseSwitches == 1)
    }

    @Test func aGroupHoldingTheSpeakerIsARightSwitch() {
        let s = switches(
            speakers: "1111122222",
            framed: "11111gggg2")
        #expect(s.switches == 2 && s.falseSwitches == 0)
        #expect(s.latencies[0].map { abs($0 - 0) < 1e-9 } == true)
    }

    @Test func nothingFramedYetIsNoSwitch() {
        let s = switches(speakers: "111111", framed: "---111")
        #expect(s.switches == 0 && s.falseSwitches == 0 && s.latencies.isEmpty)
    }

    /// A framing that covers the person in front covers them, not someone hidden behind them.
    @Test func theFramedPersonIsTheOneInViewNotTheOneHiddenBehind() {
        let front = PixelRect(x: 600, y: 300, width: 100, height: 120)
        let behind = PixelRect(x: 610, y: 310, width: 90, height: 100)
        let sample = FrameSample(
            time: 0,
            people: [PersonSample(id: 2, rect: behind, hidden: true), PersonSample(id: 1, rect: front)],
            selected: behind)
        #expect(SceneEvaluation.chosenPerson(sample) == 1)
        // Hidden and alone: still the one framed there.
        let alone = FrameSample(time: 0, people: [PersonSample(id: 2, rect: behind, hidden: true)], selected: behind)
        #expect(SceneEvaluation.chosenPerson(alone) == 2)
    }
}
