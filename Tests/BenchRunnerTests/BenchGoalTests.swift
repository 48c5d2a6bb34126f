import Testing

@testable import BenchRunner

/// The goals a scene's figures are judged by: which apply, and when a figure meets one.
@Suite(.tags(.unit)) struct BenchGoalTests {
    func figure(_ key: String, _ value: Double?) -> BenchFigure {
        BenchFigure(key: key, label: key, value: value, format: "%.2f")
    }

    func verdicts(_ scene: String, _ figures: [BenchFigure]) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: BenchGoal.check(scene: scene, figures: figures).map { ($0.goal.key, $0.met) })
    }

    @Test func aRoomIsJudgedByTheRoomGoalsAndItsTurnsBySwitchLatency() {
        let room = verdicts(
            "room-my-office",
            [
                figure("right_speaker_after_grace_pct", 90), figure("speaker_in_picture_pct", 94.9),
                figure("framed_changes_per_speaker_change", 1.2), figure("facing_nobody_s_per_min", 0),
                figure("switch_latency_s", 1.6),
            ])
        #expect(
            room == [
                "right_speaker_after_grace_pct": true, "speaker_in_picture_pct": false,
                "framed_changes_per_speaker_change": true, "facing_nobody_s_per_min": true, "switch_latency_s": false,
            ])
        // A scene nobody set goals for, with no turns, has none.
        #expect(verdicts("my-walk", [figure("centering_rms_deg", 9), figure("switch_latency_s", nil)]).isEmpty)
    }

    @Test func aFigureWithNoValueMeetsAGoalOnlyWhereNoValueIsTheBest() {
        // A run too short for a step has no settle time: not met. A subject that never left the
        // view has no spell out of it: met.
        #expect(
            verdicts("steps", [figure("settle_s", nil), figure("overshoot_pct", 0)]) == [
                "settle_s": false, "overshoot_pct": true,
            ])
        #expect(verdicts("leave-view", [figure("out_of_view_s", nil)]) == ["out_of_view_s": true])
        #expect(verdicts("leave-view", [figure("out_of_view_s", .infinity)]) == ["out_of_view_s": false])
    }
}
