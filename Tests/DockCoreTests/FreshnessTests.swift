import DockCore
import TestSupport
import Testing

/// The one staleness rule: what the feeder still sends is exactly what the dock still takes.
@Suite(.tags(.unit)) struct FreshnessTests {
    @Test func anObservationIsFreshForATenthOfASecond() {
        let captured = MonotonicInstant(seconds: 5)
        let rule = Freshness.observations
        #expect(rule.isFresh(captured, at: captured.advanced(bySeconds: 0.1)))
        #expect(!rule.isFresh(captured, at: captured.advanced(bySeconds: 0.1001)))
        #expect(Freshness(maximumAge: 0.5).isFresh(captured, at: captured.advanced(bySeconds: 0.3)))
    }
}
