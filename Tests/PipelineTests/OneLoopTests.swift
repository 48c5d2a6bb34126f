import Bench
import DockCore
import Pipeline
import Rigs
import Simulation
import Testing

/// Every rig runs one loop; only the clock policy differs. Run one scene both ways and the
/// decisions must be the same frame for frame.
@Suite(.tags(.realTime), .notInFastRuns) struct OneLoopTests {
    /// Which subjects a frame tracked, where, and which one it framed.
    struct Decision: Equatable, CustomStringConvertible {
        var sequence: UInt64
        var selected: Int?
        var subjects: [String]
        var description: String { "#\(sequence) framed \(selected.map(String.init) ?? "none"): \(subjects)" }
    }

    static func decisions(_ summary: SessionSummary) -> [Decision] {
        summary.trace.map { row in
            Decision(
                sequence: row.sequence, selected: row.selectedID,
                subjects: row.subjects.map { s in
                    "\(s.id) "
                        + [s.x, s.y, s.width, s.height].map { String(format: "%.4f", $0) }.joined(separator: " ")
                })
        }
    }

    /// A fixed camera on the demo scene (so the frames are the same whatever the timing) at
    /// 5 frames a second (so a real-time run on a loaded machine still perceives every frame),
    /// with bodies on: their results come from a thread of their own, on the one schedule.
    static func scene() -> SessionConfiguration {
        var c = unpacedDemo(frames: 30)
        c.gimbal = .dryRun
        c.useAudio = false
        c.bodyDetector = .ssdlite
        c.scene.frameRate = 5
        c.scene.people = [
            ScenePerson(id: 1, script: .walk),
            ScenePerson(id: 2, script: .still(yaw: -15, duration: 12), mirrored: true),
        ]
        return c
    }

    @Test func realTimeAndLockStepMakeTheSameDecisionsFrameByFrame() throws {
        var c = Self.scene()
        let lockStep = try Pipeline(simulating: c).run()
        c.realTime = true
        let realTime = try Pipeline(simulating: c).run()
        // A frame left behind in real time would make the runs differ for a reason of its own.
        let lost = realTime.accounting.replacedByNewer + realTime.accounting.source.late
        try #require(lost == 0, "the real-time run lost \(lost) frames: the machine is too slow for this check")
        #expect(lockStep.frames == 30 && realTime.frames == 30)
        #expect(lockStep.bodyRuns > 5, "the slow detectors must take part")
        let a = Self.decisions(lockStep)
        let b = Self.decisions(realTime)
        #expect(a.contains { $0.subjects.count >= 2 }, "both people must be tracked for the check to mean something")
        for (x, y) in zip(a, b) where x != y {
            Issue.record("lock-step \(x)\nreal time \(y)")
            break
        }
        #expect(a == b)
    }
}
