import DockCore
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

@Suite(.tags(.unit)) struct TrackRateContractTests {
    /// Calls at `rate` Hz for `seconds`; returns the error of each call (nil = accepted).
    func run(_ contract: inout TrackRateContract, rate: Double, seconds: Double, from start: Double = 0)
        -> [DockKitError?]
    {
        var results: [DockKitError?] = []
        var t = start
        while t < start + seconds {
            do {
                try contract.record(MonotonicInstant(seconds: t))
                results.append(nil)
            } catch { results.append(error) }
            t += 1 / rate
        }
        return results
    }

    @Test(arguments: [10.0, 15, 24, 30])
    func ratesInsideTheContractAreAccepted(_ rate: Double) {
        var contract = TrackRateContract()
        #expect(run(&contract, rate: rate, seconds: 5).allSatisfy { $0 == nil })
    }

    @Test func sustainedFastCallsRaiseFrameRateTooHigh() {
        var contract = TrackRateContract()
        let results = run(&contract, rate: 40, seconds: 2)
        #expect(results.prefix(5).allSatisfy { $0 == nil })  // too few calls to judge yet
        #expect(results[5] == .frameRateTooHigh)
        #expect(results.suffix(60).allSatisfy { $0 == .frameRateTooHigh })
    }

    @Test func sustainedSlowCallsRaiseFrameRateTooLow() {
        var contract = TrackRateContract()
        let results = run(&contract, rate: 5, seconds: 4)
        #expect(results.suffix(10).allSatisfy { $0 == .frameRateTooLow })
    }

    @Test func jitterWithinTenPercentIsTolerated() {
        var contract = TrackRateContract()
        var t = 0.0
        for i in 0..<300 {
            #expect(throws: Never.self) { try contract.record(MonotonicInstant(seconds: t)) }
            t += (i % 2 == 0 ? 1.0 / 27 : 1.0 / 33)
        }
    }

    /// A client on a fixed schedule that stalls once (a busy machine, a slow socket) and then
    /// sends the calls it owes back to back has not changed its rate.
    @Test func aStallAndTheCatchUpBurstAreNotAChangeOfRate() {
        var contract = TrackRateContract()
        var times = (0..<90).map { Double($0) / 30 }
        for i in 40..<43 { times[i] = times[43] - 0.001 * Double(43 - i) }
        for t in times {
            #expect(throws: Never.self) { try contract.record(MonotonicInstant(seconds: t)) }
        }
    }

    /// A sender that answers frames as they come: two calls 30 ms apart, then one 40 ms later —
    /// 30 a second, though the median interval alone would say 33.
    @Test func callsThatComeUnevenlyAroundTheRateAreAccepted() {
        var contract = TrackRateContract()
        var t = 0.0
        for i in 0..<90 {
            #expect(throws: Never.self) { try contract.record(MonotonicInstant(seconds: t)) }
            t += i % 3 == 2 ? 0.04 : 0.03
        }
    }

    @Test func aLongPauseStartsANewSessionRatherThanCountingAsSlow() {
        var contract = TrackRateContract()
        _ = run(&contract, rate: 30, seconds: 2)
        let after = run(&contract, rate: 30, seconds: 2, from: 10)
        #expect(after.allSatisfy { $0 == nil })
    }

    @Test func aClientThatSlowsDownRecovers() {
        var contract = TrackRateContract()
        _ = run(&contract, rate: 60, seconds: 1)
        let later = run(&contract, rate: 30, seconds: 2, from: 1)
        #expect(later.suffix(30).allSatisfy { $0 == nil })
    }
}
