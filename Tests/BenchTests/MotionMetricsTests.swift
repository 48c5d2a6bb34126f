import Bench
import DockCore
import TestSupport
import Testing

@Suite(.tags(.unit)) struct MotionMetricsTests {
    @Test func stepResponseOnAHandMadeTrajectory() {
        // A step from 0 to 10 at t = 1; the response overshoots to 11.5 at t = 1.4 and stays
        // within ±0.5 from t = 1.8 on.
        let times = [0.0, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2]
        let values = [0.0, 0.0, 8.0, 11.5, 10.7, 10.3, 9.8, 10.0]
        let r = MotionMetrics.stepResponse(times: times, values: values, stepTime: 1, start: 0, target: 10, band: 0.5)
        #expect(r.settleTime.map { abs($0 - 0.8) < 1e-12 } == true)
        #expect(abs(r.overshoot - 0.15) < 1e-12)
        let never = MotionMetrics.stepResponse(
            times: [0, 1, 2], values: [0, 5, 7], stepTime: 0, start: 0, target: 10, band: 0.5)
        #expect(never.settleTime == nil && never.overshoot == 0)
        let down = MotionMetrics.stepResponse(
            times: [0, 1, 2], values: [10, -1, 0], stepTime: 0, start: 10, target: 0, band: 0.5)
        #expect(abs(down.overshoot - 0.1) < 1e-12 && down.settleTime == 2)
    }

    @Test func motorStartsCountRestToMotion() {
        #expect(MotionMetrics.motorStarts([0, 0, 0.1, 0.2, 0, 0, -0.3, 0]) == 2)
        #expect(MotionMetrics.motorStarts([0, 0, 0]) == 0)
        #expect(MotionMetrics.motorStarts([0.5, 0.5]) == 1)
    }

    @Test func rmsOfKnownValues() {
        #expect(MotionMetrics.rms([3, -4]) == (12.5).squareRoot())
        #expect(MotionMetrics.rms([]) == 0)
    }
}

@Suite(.tags(.unit)) struct StageTimingsTests {
    @Test func keepsTheNewestSamplesWithinItsCapacity() {
        var timings = StageTimings(capacity: 4)
        for ms in 1...10 { timings.record("detect", milliseconds: Double(ms)) }
        #expect(timings.samples["detect"]?.sorted() == [7, 8, 9, 10])
        #expect(timings.percentiles("detect").median == 8.5)
        timings.record("track", milliseconds: 1)
        #expect(timings.order == ["detect", "track"])
    }
}
