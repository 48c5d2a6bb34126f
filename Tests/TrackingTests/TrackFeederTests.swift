import DockCore
import TestSupport
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct TrackFeederTests {
    @Test func refusesRatesOutsideDockKitsContract() {
        #expect(throws: TrackFeeder.RateOutOfRange.self) { try TrackFeeder(rate: 9.9) }
        #expect(throws: TrackFeeder.RateOutOfRange.self) { try TrackFeeder(rate: 31) }
        #expect(throws: Never.self) { try TrackFeeder(rate: 10) }
    }

    /// Runs a feeder against results arriving at `arrivals`, waking as the control thread
    /// does (at each result and at the feeder's next due time) until `end`; returns the calls
    /// and, for each result a call carried, how long it waited.
    private func drive(_ feeder: inout TrackFeeder, arrivals: [Double], until end: Double) -> (
        calls: [Double], waits: [Double]
    ) {
        var calls: [Double] = []
        var waits: [Double] = []
        var newest: Double?
        var carried: Double?
        var pending = arrivals[...]
        var now = 0.0
        while now < end {
            while let next = pending.first, next <= now {
                newest = next
                pending.removeFirst()
            }
            let fresh = newest != nil && newest != carried
            if feeder.isDue(at: MonotonicInstant(seconds: now), fresh: fresh) {
                calls.append(now)
                if fresh, let result = newest {
                    waits.append(now - result)
                    carried = result
                }
            }
            let due = feeder.nextDue(fresh: newest != nil && newest != carried)?.seconds ?? now
            now = min(pending.first ?? .infinity, max(due, now + 1e-6))
        }
        return (calls, waits)
    }

    /// When the results of ten seconds of a 30 fps camera exist: `normal` after capture, but
    /// every `every`th frame `slow` after, and the frame that queued behind it `queued` later.
    static func resultsWithASlowFrame(every: Int, slow: Double, queued: Double, normal: Double) -> [Double] {
        (1...300).map { k in
            let captured = Double(k) / 30
            switch k % every {
            case 0: return captured + slow
            case 1: return captured - 1.0 / 30 + slow + queued
            default: return captured + normal
            }
        }
    }

    /// DockKit's judgement: after each call, the mean rate of the last 5 to 10 intervals.
    private func windowRates(_ calls: [Double]) -> [Double] {
        calls.indices.dropFirst(5).map { i in
            let first = max(0, i - 10)
            return Double(i - first) / (calls[i] - calls[first])
        }
    }

    /// Detection results arrive at an uneven 7–45 Hz: each goes out within a period of
    /// existing, and the calls stay inside the contract (at most 20 Hz here, at least 10).
    @Test func callsFollowResultsInsideTheContractWhateverTheDetectionRate() throws {
        var feeder = try TrackFeeder(rate: 20)
        var generator = SeededGenerator(seed: 7)
        var arrivals: [Double] = [0.01]
        while arrivals.last! < 10 {
            arrivals.append(arrivals.last! + Double.random(in: 1.0 / 45...1.0 / 7, using: &generator))
        }
        let (calls, waits) = drive(&feeder, arrivals: arrivals, until: 10)
        let rates = windowRates(calls)
        #expect(rates.allSatisfy { $0 <= 20 * 1.1 && $0 >= 10 / 1.1 }, "rates \(rates.min() ?? 0)…\(rates.max() ?? 0)")
        #expect(waits.allSatisfy { $0 <= feeder.period + 1e-9 }, "longest wait \(waits.max() ?? 0)")
        #expect(waits.count > 100)
    }

    /// Results from a 30 fps camera arrive with ±8 ms of jitter: each goes out the moment it
    /// exists, and the sustained rate stays inside 30 Hz + 10 %.
    @Test func freshResultsGoOutAtOnceInsideTheContract() throws {
        var feeder = try TrackFeeder(rate: 30)
        var generator = SeededGenerator(seed: 11)
        let arrivals = (1...600).map { Double($0) / 30 + 0.01 + Double.random(in: -0.008...0.008, using: &generator) }
        let (calls, waits) = drive(&feeder, arrivals: arrivals, until: 20)
        let rates = windowRates(calls)
        #expect(rates.allSatisfy { $0 <= 33 && $0 >= 27 }, "rates \(rates.min() ?? 0)…\(rates.max() ?? 0)")
        let atOnce = waits.filter { $0 < 1e-6 }.count
        #expect(Double(atOnce) / Double(waits.count) > 0.9, "\(atOnce) of \(waits.count) at once")
        #expect(waits.allSatisfy { $0 < feeder.period / 2 }, "longest wait \(waits.max() ?? 0)")
        #expect(waits.count >= 590)
    }

    /// Every 30th frame takes 60 ms to detect instead of 10, and the frame that waited behind
    /// it 5 ms: results bunch up. Only the few results after each slow frame wait, none for a
    /// period; the rest go out at once.
    @Test func aBunchWaitsOnlyWhileItMust() throws {
        var feeder = try TrackFeeder(rate: 30)
        let arrivals = Self.resultsWithASlowFrame(every: 30, slow: 0.06, queued: 0.005, normal: 0.01)
        let (calls, waits) = drive(&feeder, arrivals: arrivals, until: 10)
        #expect(windowRates(calls).allSatisfy { $0 <= 33 })
        let waited = waits.filter { $0 > 1e-6 }.count
        #expect(waited <= 7 * 10, "\(waited) of \(waits.count) waited")
        #expect(waits.allSatisfy { $0 < feeder.period }, "longest wait \(waits.max() ?? 0)")
    }

    /// With no new result the calls go on at the hold interval (0.09 s), so the accessory
    /// keeps hearing from the pipeline above DockKit's 10 Hz.
    @Test func withoutNewResultsTheCallsHold() throws {
        for rate in [30.0, 20, 10] {
            var feeder = try TrackFeeder(rate: rate)
            let (calls, _) = drive(&feeder, arrivals: [0], until: 2)
            let intervals = zip(calls.dropFirst(), calls).map { $0 - $1 }
            // At 10 Hz the rate's own pacing is the longer wait, at most 0.1 s.
            #expect(
                intervals.allSatisfy { $0 >= 0.09 - 1e-9 && $0 <= (rate == 10 ? 0.105 : 0.09 + 1e-9) },
                "\(rate) Hz: \(intervals.prefix(6))")
            #expect(windowRates(calls).allSatisfy { $0 >= 10 / 1.1 })
        }
    }

    /// The credit banks one call: a second result right after the first (a frame that queued
    /// behind a slow one) goes out at once; a third waits until the credit has grown back to a
    /// call; without a fresh result the call waits for the hold interval.
    @Test func aFreshResultGoesOutEarlyButNeverTooSoon() throws {
        var feeder = try TrackFeeder(rate: 20)
        let t0 = MonotonicInstant(seconds: 1)
        let creditPeriod = 0.05 / TrackFeeder.headroom
        // (seconds after t0, fresh result waiting, call expected)
        let steps: [(Double, Bool, Bool)] = [
            (0, true, true),
            (0.003, true, true),  // the banked call
            (0.02, true, false),  // the credit is 0.42 of a call: too soon
            (0.03, false, false),  // not fresh: waits for the hold interval
        ]
        for (offset, fresh, expected) in steps {
            let due = feeder.isDue(at: t0.advanced(bySeconds: offset), fresh: fresh)
            #expect(due == expected, "at +\(offset) s, fresh \(fresh)")
        }
        // Left after the second call: the bank spent, plus 3 ms of growth.
        let left = 0.003 / creditPeriod
        let freshDue = try #require(feeder.nextDue(fresh: true))
        let holdDue = try #require(feeder.nextDue(fresh: false))
        #expect(abs(freshDue.seconds(since: t0) - (0.003 + (1 - left) * creditPeriod)) < 1e-9)
        #expect(abs(holdDue.seconds(since: t0) - (0.003 + TrackFeeder.holdInterval)) < 1e-9)
        let beforeHold = feeder.isDue(at: t0.advanced(bySeconds: 0.09), fresh: false)
        let onHold = feeder.isDue(at: holdDue, fresh: false)
        #expect(!beforeHold && onHold)
    }

    /// Bodies on: every sixth frame takes 30 ms longer and the next one queues behind it, 4 ms
    /// later. Sending both and the four after at once would make five intervals of 137 ms
    /// (36 Hz), which DockKit refuses: those calls wait for the window, never 0.6 of a period,
    /// and the credit leaves no debt behind, so the rest go out at once.
    @Test func aSlowFrameInSixKeepsTheContract() throws {
        var feeder = try TrackFeeder(rate: 30)
        let arrivals = Self.resultsWithASlowFrame(every: 6, slow: 0.036, queued: 0.004, normal: 0.006)
        let (calls, waits) = drive(&feeder, arrivals: arrivals, until: 10)
        #expect(windowRates(calls).allSatisfy { $0 <= 30 * TrackFeeder.ceiling + 1e-6 })
        #expect(waits.allSatisfy { $0 < 0.6 * feeder.period }, "longest wait \(waits.max() ?? 0)")
        #expect(waits.count >= 295, "every result carried: \(waits.count)")
    }

    /// A source much faster than the rate (200 results a second after a stall): the calls
    /// take the newest result no faster than the ceiling; the stall banks no burst.
    @Test func aFastSourceIsHeldToTheCeiling() throws {
        var feeder = try TrackFeeder(rate: 30)
        let arrivals = [0.0] + (0..<200).map { 1 + Double($0) * 0.005 }
        let (calls, _) = drive(&feeder, arrivals: arrivals, until: 2)
        let rates = windowRates(calls)
        #expect(rates.allSatisfy { $0 <= 30 * TrackFeeder.ceiling + 1e-6 }, "rates up to \(rates.max() ?? 0)")
        let burst = calls.filter { $0 >= 1 && $0 < 2 }
        #expect(burst.count >= 30 && burst.count <= 33, "\(burst.count) calls in the fast second")
    }

    @Test func staleSubjectIsNotSubmitted() throws {
        let feeder = try TrackFeeder(rate: 30, freshness: Freshness(maximumAge: 0.1))
        let seen = FrameStamp(sequence: 1, time: MonotonicInstant(seconds: 1))
        let rect = NormalizedRect(x: 0.4, y: 0.4, width: 0.1, height: 0.1)
        let subject = TrackedSubject(
            id: 4, observation: Observation(identifier: 0, kind: .humanFace, rect: rect, confidence: 0.9, stamp: seen),
            stamp: seen)
        let fresh = feeder.observations(for: subject, at: MonotonicInstant(seconds: 1.04))
        #expect(fresh.count == 1 && fresh[0].identifier == 4 && fresh[0].stamp == seen)
        // As seen in its frame: the control law, not the feeder, predicts forward.
        #expect(fresh[0].rect.x == 0.4)
        #expect(feeder.observations(for: subject, at: MonotonicInstant(seconds: 1.2)).isEmpty)
        #expect(feeder.observations(for: nil, at: MonotonicInstant(seconds: 1)).isEmpty)
    }
}
