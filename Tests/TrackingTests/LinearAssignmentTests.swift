import TestSupport
import Testing
import Tracking

@Suite(.tags(.unit)) struct LinearAssignmentTests {
    @Test func findsTheCheapestAssignment() {
        // Greedy would take the 1 and pay 1 + 10; the optimum pays 2 + 3.
        let pairs = LinearAssignment.solve([[1, 2], [3, 10]])
        #expect(pairs.map { [$0.row, $0.column] } == [[0, 1], [1, 0]])
    }

    @Test func forbiddenPairsAreNeverMadeAndCountComesFirst() {
        // Pairing row 0 with column 0 is cheapest alone but would leave row 1 unassigned.
        let pairs = LinearAssignment.solve([[0.1, 0.9], [0.2, nil]])
        #expect(pairs.map { [$0.row, $0.column] } == [[0, 1], [1, 0]])
        #expect(LinearAssignment.solve([[nil, nil], [nil, 0.5]]).map { [$0.row, $0.column] } == [[1, 1]])
    }

    @Test func rectangularBothWays() {
        #expect(LinearAssignment.solve([[5, 1, 7]]).map(\.column) == [1])
        #expect(LinearAssignment.solve([[5], [1], [7]]).map(\.row) == [1])
        #expect(LinearAssignment.solve([]).isEmpty)
    }

    /// Against brute force on random 4×5 matrices with holes.
    @Test func agreesWithExhaustiveSearch() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let costs: [[Double?]] = (0..<4).map { _ in
                (0..<5).map { _ in
                    Int.random(in: 0..<4, using: &generator) == 0 ? nil : Double.random(in: 0..<10, using: &generator)
                }
            }
            let solved = LinearAssignment.solve(costs)
            let best = Self.exhaustive(costs)
            #expect(solved.count == best.count)
            #expect(abs(solved.reduce(0) { $0 + costs[$1.row][$1.column]! } - best.cost) < 1e-9)
        }
    }

    static func exhaustive(_ costs: [[Double?]]) -> (count: Int, cost: Double) {
        var best = (count: 0, cost: 0.0)
        func search(_ row: Int, _ used: Set<Int>, _ count: Int, _ cost: Double) {
            if row == costs.count {
                if count > best.count || (count == best.count && cost < best.cost) { best = (count, cost) }
                return
            }
            search(row + 1, used, count, cost)
            for (c, value) in costs[row].enumerated() where !used.contains(c) {
                if let value { search(row + 1, used.union([c]), count + 1, cost + value) }
            }
        }
        search(0, [], 0, 0)
        return best
    }
}

@Suite(.tags(.unit)) struct LinearAssignmentEdgeTests {
    @Test func nonFiniteCostsAreForbidden() {
        let pairs = LinearAssignment.solve([[.nan, 1], [.infinity, 2], [0.5, nil]])
        #expect(pairs.map { [$0.row, $0.column] } == [[0, 1], [2, 0]])
    }
}
