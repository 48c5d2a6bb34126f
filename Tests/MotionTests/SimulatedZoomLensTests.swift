import DockCore
import Foundation
import Motion
import TestSupport
import Testing

/// The simulated zoom lens: a command takes effect after the latency, then the factor moves at
/// the model's rate in doublings a second, and stops at the range's ends.
@Suite(.tags(.unit)) struct SimulatedZoomLensTests {
    func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64(seconds * 1e9)) }

    @Test func aCommandTakesEffectAfterTheLatencyThenMovesAtTheRate() throws {
        let lens = SimulatedZoomLens(model: ZoomLensModel(maximumFactor: 4, doublingsPerSecond: 1, latency: 0.1))
        try lens.zoom(to: 4, at: at(0))
        #expect(lens.factor(at: at(0.1)) == 1)
        #expect(abs(lens.factor(at: at(1.1)) - 2) < 1e-6)
        #expect(abs(lens.factor(at: at(1.6)) - 2 * 2.0.squareRoot()) < 1e-6)
        #expect(abs(lens.factor(at: at(5)) - 4) < 1e-9)
    }

    @Test func aNewerCommandTakesOverAndTheRangeHolds() throws {
        let lens = SimulatedZoomLens(model: ZoomLensModel(maximumFactor: 3, doublingsPerSecond: 2, latency: 0))
        try lens.zoom(to: 10, at: at(0))
        #expect(abs(lens.factor(at: at(2)) - 3) < 1e-9)
        try lens.zoom(to: 0.2, at: at(2))
        try lens.zoom(to: 1.5, at: at(2.1))
        // Out at two doublings a second until the newer command, then toward 1.5 and no further.
        #expect(abs(lens.factor(at: at(2.1)) - 3 / pow(2, 0.2)) < 1e-6)
        #expect(abs(lens.factor(at: at(4)) - 1.5) < 1e-9)
    }
}
