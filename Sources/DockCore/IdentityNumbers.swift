import Foundation

/// Small whole numbers for identities (UUIDs), in order of first sight, for traces and metrics.
public struct IdentityNumbers: Sendable {
    private var numbers: [UUID: Int] = [:]

    public init() {}

    public mutating func number(for uuid: UUID) -> Int {
        if let n = numbers[uuid] { return n }
        let n = numbers.count + 1
        numbers[uuid] = n
        return n
    }
}
