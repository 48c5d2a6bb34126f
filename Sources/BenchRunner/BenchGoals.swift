/// The goals the project set itself for scenes of the suite, each where it was set: the report
/// shows a figure beside its goal, met or not. A scene of your own has the goals of its kind
/// (a room's, a speaking scene's) when its name says so (`room-…`), and the speaking goals when
/// it has turns of speech.
struct BenchGoal: Sendable, Equatable {
    let key: String
    let limit: Double
    /// The figure must stay at or under the limit (else at or over it).
    let atMost: Bool
    /// What set it, in a few words.
    let source: String
    /// A figure with no value meets the goal: for a spell's length, no spell at all.
    var metWithoutValue = false

    func isMet(by value: Double) -> Bool { atMost ? value <= limit : value >= limit }

    var text: String { (atMost ? "≤ " : "≥ ") + BenchGoal.number(limit) }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2g", value)
    }

    static func most(_ key: String, _ limit: Double, _ source: String) -> BenchGoal {
        BenchGoal(key: key, limit: limit, atMost: true, source: source)
    }

    static func least(_ key: String, _ limit: Double, _ source: String) -> BenchGoal {
        BenchGoal(key: key, limit: limit, atMost: false, source: source)
    }

    /// A scene's goals; `speaks` when it has turns of speech (its switch latency has a value).
    static func goals(scene: String, speaks: Bool) -> [BenchGoal] {
        var goals: [BenchGoal] = []
        let rooms = "rooms: real rooms"
        let framing = "who to frame"
        let motion = "motion people want to watch"
        if scene.hasPrefix("room-") {
            goals += [
                least("right_speaker_after_grace_pct", 90, rooms), least("speaker_in_picture_pct", 95, rooms),
                most("framed_changes_per_speaker_change", 1.2, rooms), most("facing_nobody_s_per_min", 1, rooms),
            ]
        }
        switch scene {
        case "conversation-room": goals.append(least("right_speaker_after_grace_pct", 85, rooms + ", real speech"))
        case "two-people":
            goals += [least("speaker_accuracy_pct", 95, rooms + ", no regression"), most("false_switches", 0, rooms)]
        case "three-people":
            goals += [least("speaker_accuracy_pct", 90, rooms + ", no regression"), most("false_switches", 0, rooms)]
        case "crossing": goals.append(least("idf1", 0.9, framing))
        case "small-faces": goals.append(most("acquire_s", 1, framing))
        case "walk-slow", "walk-slower", "still":
            goals += [most("motor_starts_per_min", 10, motion), most("centering_rms_deg", 1.5, motion)]
        case "carphone":
            goals += [most("motor_starts_per_min", 30, motion), most("centering_rms_deg", 2.5, motion)]
        case "visca-steps": goals += [most("overshoot_pct", 10, motion), most("settle_s", 0.9, motion)]
        case "steps": goals += [most("overshoot_pct", 0, motion), most("settle_s", 0.53, motion + ", no regression")]
        case "leave-view":
            // The subject never out of view has no spell to time: the goal is met.
            var back = most("out_of_view_s", 1.5, motion)
            back.metWithoutValue = true
            goals.append(back)
        default: break
        }
        if speaks { goals.append(most("switch_latency_s", 1.5, framing)) }
        return goals
    }

    /// Each of the run's goals with its figure; a figure with no value is not met, unless no
    /// value is the best there is (`metWithoutValue`).
    static func check(_ run: SceneRun) -> [(goal: BenchGoal, value: Double?, met: Bool)] {
        check(scene: run.scene, figures: run.figures)
    }

    static func check(scene: String, figures: [BenchFigure]) -> [(goal: BenchGoal, value: Double?, met: Bool)] {
        let speaks = figures.contains { $0.key == "switch_latency_s" && $0.value != nil }
        return goals(scene: scene, speaks: speaks).map { goal in
            let value = figures.first { $0.key == goal.key }?.value ?? nil
            return (goal, value, value.map(goal.isMet) ?? goal.metWithoutValue)
        }
    }
}
