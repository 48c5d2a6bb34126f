import DockCore
import Foundation

/// A line of a label file that cannot be read: its number, the field, and what is wrong.
public struct LabelFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    /// The field as the format names it, e.g. "field 3 (x)".
    public let field: String
    public let problem: String

    public init(line: Int, field: String, problem: String) {
        self.line = line
        self.field = field
        self.problem = problem
    }

    public var description: String { "line \(line), \(field): \(problem)" }
}

/// One line of a label file split into fields, with the format's names for them, so that a
/// problem names its line and its field.
public struct LabelLine: Sendable, Equatable {
    public let number: Int
    public let fields: [Substring]
    public let names: [String]

    public func field(_ index: Int) -> String {
        index < names.count ? "field \(index + 1) (\(names[index]))" : "field \(index + 1)"
    }

    public func error(_ index: Int, _ problem: String) -> LabelFileError {
        LabelFileError(line: number, field: field(index), problem: problem)
    }

    public func number(_ index: Int) throws(LabelFileError) -> Double {
        guard index < fields.count else { throw error(index, "is missing") }
        guard let value = Double(fields[index]), value.isFinite else {
            throw error(index, "'\(fields[index].prefix(40))' is not a number")
        }
        return value
    }

    public func whole(_ index: Int, in range: ClosedRange<Int>) throws(LabelFileError) -> Int {
        let value = try number(index)
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw error(index, "\(fields[index]) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(value)
    }

    /// The lines of `text` that carry data, each split at `separators`; `comment` starts a line to skip.
    public static func lines(
        of text: String, names: [String], separators: (Character) -> Bool, comment: Character? = nil
    ) -> [LabelLine] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().compactMap {
            index, raw in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, line.first != comment else { return nil }
            let fields = line.split(whereSeparator: separators).map { $0.trimmingCharacters(in: .whitespaces) }
            return LabelLine(number: index + 1, fields: fields.map { Substring($0) }, names: names)
        }
    }
}
