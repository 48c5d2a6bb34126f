import DockCore
import Foundation
import SceneFiles
import Simulation
import Testing

/// The reviewer's edits on a recording's truth: each changes who is seen or who speaks where it
/// says, and leaves every other frame's boxes as they were.
@Suite(.tags(.unit)) struct TruthEditTests {
    static func box(_ x: Double, _ size: Double = 40) -> PixelRect {
        PixelRect(x: x, y: 100, width: size, height: size)
    }

    /// Person 1 walks right over frames 0…100 (hidden 40…49); person 2 is seen over 60…150.
    static let truth = LabelledTruth(
        people: [
            .init(
                id: 1, keyframes: [.init(frame: 0, face: box(0)), .init(frame: 100, face: box(200, 60))],
                hidden: [40...49]),
            .init(id: 2, keyframes: [.init(frame: 60, face: box(300)), .init(frame: 150, face: box(480))]),
        ],
        speech: [.init(id: 1, span: TimeSpan(0.4, 1.2)), .init(id: 2, span: TimeSpan(3, 5))],
        frameRate: 25)

    /// Each frame's visible boxes by id.
    static func seen(_ truth: LabelledTruth, _ frame: Int) -> [Int: PixelRect] {
        Dictionary(
            uniqueKeysWithValues: truth.groundTruth(sequence: UInt64(frame)).filter { !$0.hidden }.map {
                ($0.id, $0.face)
            }
        )
    }

    static func near(_ a: PixelRect?, _ b: PixelRect?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.x - b.x) <= 0.5 && abs(a.y - b.y) <= 0.5 && abs(a.width - b.width) <= 0.5
            && abs(a.height - b.height) <= 0.5
    }

    @Test func aSplitGivesTheFramesFromItOnToSomeoneNewAndCutsTheirSpeech() throws {
        var truth = Self.truth
        try truth.apply(.split(1, atFrame: 20))
        #expect(truth.people.map(\.id) == [1, 2, 3])
        for frame in 0...150 {
            let before = Self.seen(Self.truth, frame)
            let after = Self.seen(truth, frame)
            #expect(Self.near(after[frame < 20 ? 1 : 3], before[1]), "frame \(frame)")
            #expect(after[frame < 20 ? 3 : 1] == nil, "frame \(frame)")
            #expect(Self.near(after[2], before[2]), "frame \(frame)")
        }
        // 20 frames at 25 fps is 0.8 s: person 1's turn is cut there.
        let turns = truth.speech.map { "\($0.id): \($0.span.start)–\($0.span.end)" }
        #expect(turns == ["1: 0.4–0.8", "3: 0.8–1.2", "2: 3.0–5.0"])
    }

    @Test func aMergeKeepsEachPersonsBoxesWhereTheyWereSeenAndTheirSpeech() throws {
        var truth = Self.truth
        try truth.apply(.split(1, atFrame: 20))
        try truth.apply(.merge(3, into: 1))
        for frame in 0...150 {
            #expect(Self.near(Self.seen(truth, frame)[1], Self.seen(Self.truth, frame)[1]), "frame \(frame)")
        }
        #expect(truth.speech.filter { $0.id == 1 }.map(\.span) == [TimeSpan(0.4, 1.2)], "touching turns join")

        // Two people seen at once: where both are, the one merged into keeps their boxes; the
        // frames neither is seen in stay hidden.
        try truth.apply(.merge(2, into: 1))
        #expect(truth.people.map(\.id) == [1])
        for frame in 0...150 {
            let before = Self.seen(Self.truth, frame)
            #expect(Self.near(Self.seen(truth, frame)[1], before[1] ?? before[2]), "frame \(frame)")
        }
        #expect(truth.people[0].hidden == [40...49])
        #expect(truth.speech.map(\.id) == [1, 1])
    }

    @Test func hidingFalseBoxesTrimsTheEndsAndHidingAllDropsThePerson() throws {
        var truth = Self.truth
        try truth.apply(.hide(2, frames: 0...79))
        let two = try #require(truth.people.first { $0.id == 2 })
        #expect(two.keyframes.first?.frame == 80 && two.hidden.isEmpty)
        #expect(Self.near(Self.seen(truth, 80)[2], Self.seen(Self.truth, 80)[2]))
        #expect(Self.near(Self.seen(truth, 120)[2], Self.seen(Self.truth, 120)[2]))
        #expect(Self.seen(truth, 79)[2] == nil)

        try truth.apply(.hide(1, frames: 60...70))
        #expect(truth.people.first { $0.id == 1 }?.hidden == [40...49, 60...70])

        try truth.apply(.hide(2, frames: 0...200))
        #expect(truth.people.map(\.id) == [1] && !truth.speech.contains { $0.id == 2 })
    }

    @Test func speechIsAddedAndTakenAwayOverASpan() throws {
        var truth = Self.truth
        try truth.apply(.speech(1, TimeSpan(1, 2), speaking: true))
        try truth.apply(.speech(1, TimeSpan(3, 4), speaking: true))
        try truth.apply(.speech(2, TimeSpan(3.5, 4.5), speaking: false))
        try truth.apply(.drop(1))
        let turns = truth.speech.map { "\($0.id): \($0.span.start)–\($0.span.end)" }
        #expect(turns == ["2: 3.0–3.5", "2: 4.5–5.0"])
        #expect(truth.people.map(\.id) == [2])
    }

    @Test func editsThatMakeNoSenseAreRefusedInOneLine() {
        func refusal(_ edit: TruthEdit) -> String {
            var truth = Self.truth
            do {
                try truth.apply(edit)
                return "made"
            } catch { return error.description }
        }
        #expect(refusal(.merge(1, into: 1)) == "merge needs two different people")
        #expect(refusal(.drop(7)) == "no person 7 (people: 1, 2)")
        #expect(
            refusal(.split(2, atFrame: 60))
                == "person 2 is labelled from frame 60 to 150: split at a frame after the first")
        #expect(
            refusal(.speech(1, TimeSpan(2, 1), speaking: true)) == "a span of speech runs forward from 0 s or later")
        // Labelled to frame 100 but hidden from 60 on: after frame 70 there is nobody to split off.
        var hiddenEnd = LabelledTruth(
            people: [
                .init(
                    id: 1, keyframes: [.init(frame: 0, face: Self.box(0)), .init(frame: 100, face: Self.box(9))],
                    hidden: [60...100])
            ],
            frameRate: 25)
        #expect {
            try hiddenEnd.apply(.split(1, atFrame: 70))
        } throws: { error in
            (error as? TruthEditError)?.description == "person 1 is seen on one side of frame 70 only: nothing to split"
        }
        #expect(hiddenEnd.people.count == 1)
    }
}
