import DockCore
import Foundation
import Simulation

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

/// The video a label file describes: what its frame numbers and times must fit.
public struct LabelledVideo: Sendable {
    public var frameCount: Int
    public var size: PixelSize
    public var frameRate: Double

    public init(frameCount: Int, size: PixelSize, frameRate: Double) {
        self.frameCount = frameCount
        self.size = size
        self.frameRate = frameRate
    }

    public var duration: Double { Double(frameCount) / frameRate }

    /// Whether a box (pixels, top-left origin) has its centre in the picture.
    func contains(_ box: PixelRect) -> Bool {
        box.midX >= 0 && box.midY >= 0 && box.midX < Double(size.width) && box.midY < Double(size.height)
    }
}

/// One line of a label file split into fields, with the format's names for them.
struct LabelLine {
    let number: Int
    let fields: [Substring]
    let names: [String]

    func field(_ index: Int) -> String {
        index < names.count ? "field \(index + 1) (\(names[index]))" : "field \(index + 1)"
    }

    func error(_ index: Int, _ problem: String) -> LabelFileError {
        LabelFileError(line: number, field: field(index), problem: problem)
    }

    func number(_ index: Int) throws(LabelFileError) -> Double {
        guard index < fields.count else { throw error(index, "is missing") }
        guard let value = Double(fields[index]), value.isFinite else {
            throw error(index, "'\(fields[index].prefix(40))' is not a number")
        }
        return value
    }

    func whole(_ index: Int, in range: ClosedRange<Int>) throws(LabelFileError) -> Int {
        let value = try number(index)
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw error(index, "\(fields[index]) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(value)
    }

    /// The lines of `text` that carry data, each split at `separators`; `comment` starts a line to skip.
    static func lines(
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

/// A person's boxes by frame, as a label file gives them, made into the truth's keyframes: a
/// run of frames with no box longer than `gap` frames is hidden.
func labelledPerson(id: Int, boxes: [Int: PixelRect], gap: Int) -> LabelledTruth.Person {
    let frames = boxes.keys.sorted()
    var hidden: [ClosedRange<Int>] = []
    for (a, b) in zip(frames, frames.dropFirst()) where b - a > gap + 1 { hidden.append((a + 1)...(b - 1)) }
    return LabelledTruth.Person(
        id: id, keyframes: frames.map { LabelledTruth.Keyframe(frame: $0, face: boxes[$0]!) }, hidden: hidden)
}
