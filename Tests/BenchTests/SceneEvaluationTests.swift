import Bench
import DockCore
import Foundation
import TestSupport
import Testing

/// The closed-loop figures on hand-made frames whose answers are known.
@Suite(.tags(.unit)) struct SceneEvaluationTests {
    // A 2000 × 1000 view with a 1000-pixel focal length: a face centred `degrees` to the right.
    let settings = SceneEvaluationSettings(viewWidth: 2000, viewHeight: 1000, focalLength: 1000)

    func face(_ id: Int, degrees: Double, speaking: Bool = false, hidden: Bool = false, yaw: Double = 0) -> PersonSample
    {
        let x = 1000 + 1000 * tan(degrees * .pi / 180)
        return PersonSample(
            id: id, rect: PixelRect(x: x - 50, y: 450, width: 100, height: 100), hidden: hidden, speaking: speaking,
            yaw: yaw)
    }

    func frame(_ t: Double, _ people: [PersonSample], chosen: Int?, yaw: Double = 0, command: Double = 0) -> FrameSample
    {
        let rect = chosen.flatMap { id in people.first { $0.id == id }?.rect }
        return FrameSample(time: t, yaw: yaw, commandYaw: command, people: people, selected: rect)
    }

    @Test func centringErrorRMSAndInViewShareOfAKnownTrajectory() throws {
        // Errors 3°, 4°, 3°, 4° after acquisition at frame 1; frame 4 is out of view (60° right).
        let errors = [10.0, 3, 4, 3, 4, 60]
        let samples = errors.enumerated().map { i, e in
            frame(Double(i) * 0.1, [face(1, degrees: e)], chosen: i == 0 ? nil : 1)
        }
        let evaluation = SceneEvaluation(samples: samples, settings: settings)
        #expect(evaluation.loop.timeToAcquire.map { abs($0 - 0.1) < 1e-12 } == true)
        let rms = try #require(evaluation.loop.centeringErrors().rootMeanSquare)
        #expect(abs(rms - ((9.0 + 16 + 9 + 16) / 4).squareRoot()) < 1e-9)
        #expect(evaluation.loop.inViewShare == 0.8)
    }

    /// A frame taken zoomed in 2× has twice the focal length: the same pixel offset is a smaller
    /// angle, as the lens saw it.
    @Test func centringAnglesGoThroughTheFramesOwnZoom() throws {
        let offset = 1000 * tan(4 * Double.pi / 180)  // 4° at the widest
        var samples = (0..<3).map { i in frame(Double(i) * 0.1, [face(1, degrees: 4)], chosen: 1) }
        samples[1].zoom = 2
        samples[2].zoom = 4
        let loop = SceneEvaluation(samples: samples, settings: settings).loop
        let errors = try loop.samples.map { try #require(loop.centeringErrorDegrees($0)) }
        #expect(abs(errors[0] - 4) < 1e-9)
        #expect(abs(errors[1] - atan(offset / 2000) * 180 / .pi) < 1e-9)
        #expect(abs(errors[2] - atan(offset / 4000) * 180 / .pi) < 1e-9 && errors[2] < 1.01)
    }

    /// Out-of-view spells count from acquisition, end when the face is back in view, ignore
    /// frames where the target is hidden, and one still open at the end is "never".
    @Test func outOfViewSpellsAndTheEndFromHome() throws {
        // In view (0°), out (60°) for 0.3 s, in, hidden out of view (not a spell), out to the end.
        let degrees = [0.0, 0, 60, 60, 60, 0, 0, 60, 60, 0, 60, 60]
        let hidden = [7, 8]
        let samples = degrees.enumerated().map { i, d in
            frame(
                Double(i) * 0.1, [face(1, degrees: d, hidden: hidden.contains(i))], chosen: d == 0 ? 1 : nil,
                yaw: Double(i) * 0.01)
        }
        let evaluation = SceneEvaluation(samples: samples, settings: settings)
        #expect(evaluation.outOfViewSpells.count == 2)
        #expect(evaluation.outOfViewSpells.first.map { $0.map { abs($0 - 0.3) < 1e-9 } } == true)
        #expect(evaluation.outOfViewSpells.last == .some(nil))
        #expect(evaluation.endFromHome == nil, "the target is there at the end")
        // Gone (hidden) at the end: how far the head ended from where it started.
        let gone =
            samples.dropLast().map { $0 } + [frame(1.1, [face(1, degrees: 60, hidden: true)], chosen: nil, yaw: 0.2)]
        let home = try #require(SceneEvaluation(samples: gone, settings: settings).endFromHome)
        #expect(abs(home - 0.2) < 1e-12)
    }

    @Test func stepSettleTimeAndOvershoot() throws {
        // The target jumps from 0° to 10° at t = 1; the gimbal overshoots to 11° at t = 1.4 and
        // stays within 2.5° of 10° from t = 1.3.
        let yaws = [0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 9, 11, 10.5, 10.2, 10, 10, 10]
        let samples = yaws.enumerated().map { i, yaw in
            let t = Double(i) * 0.1
            return frame(t, [face(1, degrees: 0, yaw: (t >= 1 ? 10 : 0) * .pi / 180)], chosen: 1, yaw: yaw * .pi / 180)
        }
        var s = settings
        s.steps = [1]
        let step = try #require(SceneEvaluation(samples: samples, settings: s).steps.first)
        #expect(step.settleTime.map { abs($0 - 0.3) < 1e-9 } == true)
        #expect(abs(step.overshoot - 0.1) < 1e-9)
    }

    @Test func speakerChoiceLatencyAndFalseSwitches() {
        // Person 1 speaks for 1 s, then person 2 for 1 s, then 1 again; frames every 0.1 s. The
        // pipeline follows the first change after 0.3 s, never follows the second, and once
        // jumps to the wrong person for a frame.
        var samples: [FrameSample] = []
        for i in 0..<30 {
            let t = Double(i) * 0.1
            let speaker = i < 10 ? 1 : i < 20 ? 2 : 1
            let chosen = i == 5 ? 2 : i < 13 ? 1 : 2
            samples.append(
                frame(
                    t, [face(1, degrees: -10, speaking: speaker == 1), face(2, degrees: 10, speaking: speaker == 2)],
                    chosen: chosen))
        }
        let e = SceneEvaluation(samples: samples, settings: settings)
        #expect(e.switchLatencies.count == 2)
        #expect(e.switchLatencies[0].map { abs($0 - 0.3) < 1e-9 } == true)
        #expect(e.switchLatencies[1] == nil)
        // Right: frames 0–9 except 5, 13–19; wrong: 5, 10–12, 20–29.
        #expect(e.speakerChoiceAccuracy.map { abs($0 - 16.0 / 30) < 1e-12 } == true)
        // 1→2 at frame 5 (wrong: 1 speaks), 2→1 at 6 (right), 1→2 at 13 (right).
        #expect(e.falseSwitches == 1)
    }

    @Test func reacquisitionAfterTheTargetIsHidden() {
        // Hidden in frames 10–19; chosen again from frame 25 (0.5 s after it reappears).
        let samples = (0..<40).map { i in
            frame(
                Double(i) * 0.1, [face(1, degrees: 0, hidden: (10..<20).contains(i))],
                chosen: i < 10 || i >= 25 ? 1 : nil)
        }
        let e = SceneEvaluation(samples: samples, settings: settings)
        #expect(e.reacquireTimes.count == 1)
        #expect(e.reacquireTimes[0].map { abs($0 - 0.5) < 1e-9 } == true)
    }

    @Test func motorStartsAndReversals() {
        let degrees = Double.pi / 180
        let commands = [0.0, 5, 5, -5, -5, 0, 0, 5, 0.1, 0, -3]  // 0.1°/s is rest
        let samples = commands.enumerated().map { i, c in
            frame(Double(i) * 60 / 11, [face(1, degrees: 0)], chosen: 1, command: c * degrees)
        }
        let e = SceneEvaluation(samples: samples, settings: settings)
        #expect(e.motorStarts == 3)
        #expect(e.reversals == 3)
        #expect(abs(e.reversalsPerMinute - 3) < 1e-9)  // eleven frames of 60/11 s: one minute
    }

    @Test func chosenPersonByOverlapOrByBody() {
        let a = face(1, degrees: -10)
        let b = face(2, degrees: 10)
        // A body box under person 2's face: its head is person 2.
        let body = PixelRect(x: b.rect!.x - 80, y: b.rect!.y - 20, width: 260, height: 600)
        #expect(SceneEvaluation.chosenPerson(FrameSample(time: 0, people: [a, b], selected: body)) == 2)
        #expect(SceneEvaluation.chosenPerson(FrameSample(time: 0, people: [a, b], selected: a.rect)) == 1)
        #expect(
            SceneEvaluation.chosenPerson(
                FrameSample(time: 0, people: [a, b], selected: PixelRect(x: 0, y: 0, width: 10, height: 10))) == nil)
    }
}
