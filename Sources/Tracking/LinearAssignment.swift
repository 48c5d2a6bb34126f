/// Minimum-cost assignment of rows to columns (the Hungarian method with potentials, O(n²m)).
/// `nil` marks a pair that must not be assigned. As many pairs as possible are made first, then
/// the cost is minimised among those: forbidden pairs are given a cost larger than any set of
/// allowed ones could add up to, and dropped from the answer. A cost that is not finite counts
/// as forbidden (a NaN would otherwise stall the search).
public enum LinearAssignment {
    public static func solve(_ input: [[Double?]]) -> [(row: Int, column: Int)] {
        let costs = input.map { row in row.map { $0.flatMap { $0.isFinite ? $0 : nil } } }
        let rows = costs.count
        let columns = costs.first?.count ?? 0
        guard rows > 0, columns > 0 else { return [] }
        let allowed = costs.flatMap { $0.compactMap { $0 } }
        guard !allowed.isEmpty else { return [] }
        let largest = allowed.map(abs).max()! + 1
        let forbidden = 2 * Double(min(rows, columns)) * largest + 1
        // The method wants rows ≤ columns: solve the transpose when there are more rows.
        let transposed = rows > columns
        let n = transposed ? columns : rows
        let m = transposed ? rows : columns
        func cost(_ i: Int, _ j: Int) -> Double {
            (transposed ? costs[j][i] : costs[i][j]) ?? forbidden
        }
        let match = hungarian(n: n, m: m, cost: cost)
        var pairs: [(row: Int, column: Int)] = []
        for (i, j) in match.enumerated() {
            let (r, c) = transposed ? (j, i) : (i, j)
            if costs[r][c] != nil { pairs.append((r, c)) }
        }
        return pairs.sorted { $0.row < $1.row }
    }

    /// For each of the n rows, the column (of m ≥ n) it is assigned.
    private static func hungarian(n: Int, m: Int, cost: (Int, Int) -> Double) -> [Int] {
        // 1-based arrays; column 0 is the virtual start of each augmenting path.
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: m + 1)
        var rowOfColumn = [Int](repeating: 0, count: m + 1)
        var way = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            rowOfColumn[0] = i
            var column = 0
            var minimum = [Double](repeating: .infinity, count: m + 1)
            var used = [Bool](repeating: false, count: m + 1)
            repeat {
                used[column] = true
                let row = rowOfColumn[column]
                var delta = Double.infinity
                var next = 0
                for j in 1...m where !used[j] {
                    let reduced = cost(row - 1, j - 1) - u[row] - v[j]
                    if reduced < minimum[j] {
                        minimum[j] = reduced
                        way[j] = column
                    }
                    if minimum[j] < delta {
                        delta = minimum[j]
                        next = j
                    }
                }
                for j in 0...m {
                    if used[j] {
                        u[rowOfColumn[j]] += delta
                        v[j] -= delta
                    } else {
                        minimum[j] -= delta
                    }
                }
                column = next
            } while rowOfColumn[column] != 0
            repeat {
                let previous = way[column]
                rowOfColumn[column] = rowOfColumn[previous]
                column = previous
            } while column != 0
        }
        var assignment = [Int](repeating: -1, count: n)
        for j in 1...m where rowOfColumn[j] != 0 { assignment[rowOfColumn[j] - 1] = j - 1 }
        return assignment
    }
}
