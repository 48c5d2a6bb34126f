import DockCore
import Testing

@Suite(.tags(.unit)) struct StraightLineTests {
    @Test func aLineThroughPointsOnItAndAroundIt() throws {
        let exact = try #require(StraightLine(x: [0, 1, 2, 3], y: [1, 3, 5, 7]))
        #expect(exact.slope == 2 && exact.intercept == 1 && exact.residual == 0 && exact.zeroCrossing == -0.5)
        // Points one above and one below a flat line: it goes between them, a unit off each.
        let spread = try #require(StraightLine(x: [0, 0, 2, 2], y: [1, -1, 1, -1]))
        #expect(spread.slope == 0 && spread.intercept == 0 && spread.residual == 1 && spread.zeroCrossing == nil)
        #expect(StraightLine(x: [1], y: [2]) == nil && StraightLine(x: [3, 3], y: [1, 2]) == nil)
    }
}
