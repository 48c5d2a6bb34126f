import DockCore
import Testing
import TestSupport
@testable import Tracking

@Suite struct TrackFeederTests {
    @Test func refusesRatesOutsideDockKitsContract() {
        #expect(throws: TrackFeeder.RateOutOfRange.self) { try TrackFeeder(rate: 9.9) }
        #expect(throws: TrackFeeder.RateOutOfRange.self) { try TrackFeeder(rate: 31) }
        #expect(throws: Never.self) { try TrackFeeder(rate: 10) }
    }

    /// Detection results arrive at an uneven 7–45 Hz; the loop runs the feeder's ticks between
    /// them, as the pipeline does; the calls stay at exactly 20 Hz.
    @Test func callsAtAFixedRateWhateverTheDetectionRate() throws {
        var feeder = try TrackFeeder(rate: 20)
        var generator = SeededGenerator(seed: 7)
        var calls: [MonotonicInstant] = []
        var arrival = MonotonicInstant.zero
        while arrival.seconds < 10 {
            let next = arrival.advanced(bySeconds: Double.random(in: 1.0 / 45...1.0 / 7, using: &generator))
            var tick = max(arrival, feeder.nextDue ?? arrival)
            while tick < next {
                if feeder.isDue(at: tick) { calls.append(tick) }
                tick = feeder.nextDue!
            }
            arrival = next
        }
        #expect(calls.count >= 200 && calls.count <= 201)
        let intervals = zip(calls.dropFirst(), calls).map { $0.seconds(since: $1) }
        #expect(intervals.allSatisfy { abs($0 - 0.05) < 1e-6 })
        #expect(feeder.skippedTicks == 0)
    }

    /// A result from a newer frame goes out as soon as 90 % of a period has passed since the
    /// last call, and the schedule restarts from it; sooner, or without a fresh result, the
    /// call waits for the schedule.
    @Test func aFreshResultGoesOutEarlyButNeverTooSoon() throws {
        var feeder = try TrackFeeder(rate: 20)
        let t0 = MonotonicInstant(seconds: 1)
        #expect(feeder.isDue(at: t0, fresh: true))
        #expect(!feeder.isDue(at: t0.advanced(bySeconds: 0.04), fresh: true))     // 0.8 of a period: too soon
        #expect(!feeder.isDue(at: t0.advanced(bySeconds: 0.046), fresh: false))   // not fresh: waits for 0.05
        #expect(feeder.isDue(at: t0.advanced(bySeconds: 0.046), fresh: true))      // fresh, past 0.9 of a period
        #expect(feeder.nextDue == t0.advanced(bySeconds: 0.096))
        #expect(!feeder.isDue(at: t0.advanced(bySeconds: 0.09), fresh: false))
        #expect(feeder.isDue(at: t0.advanced(bySeconds: 0.096), fresh: false))
    }

    /// Results from a 30 fps camera arrive with ±8 ms of jitter; calls follow them, each as soon
    /// as it may, and the sustained rate stays inside DockKit's 30 Hz + 10 %.
    @Test func freshResultsKeepTheSustainedRateInsideTheContract() throws {
        var feeder = try TrackFeeder(rate: 30)
        var generator = SeededGenerator(seed: 11)
        var calls: [MonotonicInstant] = []
        var tick = MonotonicInstant.zero
        var nextResult = MonotonicInstant(seconds: 0.01)
        var frame = 0
        while tick.seconds < 20 {
            let fresh = tick >= nextResult
            if feeder.isDue(at: tick, fresh: fresh) { calls.append(tick) }
            if fresh {
                frame += 1
                nextResult = MonotonicInstant(seconds: Double(frame) / 30 + 0.01 + Double.random(in: -0.008...0.008, using: &generator))
            }
            tick = min(nextResult, feeder.nextDue ?? nextResult)
        }
        let windows = stride(from: 10, to: calls.count, by: 1).map { i in 10 / calls[i].seconds(since: calls[i - 10]) }
        #expect(windows.allSatisfy { $0 <= 33 && $0 >= 27 }, "rates \(windows.min() ?? 0)…\(windows.max() ?? 0)")
        #expect(calls.count >= 590 && calls.count <= 610)
    }

    @Test func lateCallerSkipsTicksInsteadOfBursting() throws {
        var feeder = try TrackFeeder(rate: 30)
        let answers = [0, 0.02, 0.25, 0.255].map { feeder.isDue(at: MonotonicInstant(seconds: $0)) }
        // Due at once, not again within the period; after a quarter-second stall one call, then
        // the schedule resumes a period later.
        #expect(answers == [true, false, true, false])
        #expect(feeder.skippedTicks == 6)
        let next = try #require(feeder.nextDue)
        #expect(next.seconds > 0.25 && next.seconds <= 0.25 + 1.0 / 30)
    }

    @Test func staleSubjectIsNotSubmitted() throws {
        let feeder = try TrackFeeder(rate: 30, freshness: 0.1)
        let seen = FrameStamp(sequence: 1, time: MonotonicInstant(seconds: 1))
        let rect = NormalizedRect(x: 0.4, y: 0.4, width: 0.1, height: 0.1)
        let subject = TrackedSubject(id: 4, observation: Observation(identifier: 0, kind: .humanFace, rect: rect, confidence: 0.9, stamp: seen), stamp: seen)
        let fresh = feeder.observations(for: subject, at: MonotonicInstant(seconds: 1.04))
        #expect(fresh.count == 1 && fresh[0].identifier == 4 && fresh[0].stamp == seen)
        // As seen in its frame: the control law, not the feeder, predicts forward.
        #expect(fresh[0].rect.x == 0.4)
        #expect(feeder.observations(for: subject, at: MonotonicInstant(seconds: 1.2)).isEmpty)
        #expect(feeder.observations(for: nil, at: MonotonicInstant(seconds: 1)).isEmpty)
    }
}
