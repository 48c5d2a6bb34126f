import DockCore
import Foundation

/// Reads the MOTChallenge text format: one box a line, `frame,id,x,y,width,height,confidence,…`
/// (commas or blanks between fields; pixels, top-left origin). The rows are what every reader
/// of the format shares: the devkit comparison groups them by frame as they are, the scene
/// files' labels (`MOTLabels`) apply MOT's scoring rules to them.
public enum MOTChallengeFile {
    /// One box of the file, with the line it came from.
    public struct Row: Sendable, Equatable {
        public var line: LabelLine
        public var frame: Int
        public var id: Int
        public var box: PixelRect
        /// The seventh field, when there is one (0: a box MOT leaves out of scoring).
        public var confidence: Double?
    }

    public static let names = ["frame", "id", "x", "y", "width", "height", "confidence", "class", "visibility"]

    /// Every box of the file; a line that is not one names its field. Frames and ids are whole
    /// numbers a counter could reach, boxes finite with no negative size.
    public static func rows(_ text: String) throws(LabelFileError) -> [Row] {
        var rows: [Row] = []
        for line in LabelLine.lines(of: text, names: names, separators: { $0 == "," || $0 == " " || $0 == "\t" }) {
            guard line.fields.count >= 6 else {
                throw line.error(
                    line.fields.count, "a line has frame,id,x,y,width,height and more (\(line.fields.count) fields)")
            }
            let frame = try line.whole(0, in: -1_000_000_000...1_000_000_000)
            let id = try line.whole(1, in: -1_000_000_000...1_000_000_000)
            let box = PixelRect(
                x: try line.number(2), y: try line.number(3), width: try line.number(4), height: try line.number(5))
            guard box.width >= 0 else { throw line.error(4, "a box's width cannot be negative") }
            guard box.height >= 0 else { throw line.error(5, "a box's height cannot be negative") }
            let confidence = line.fields.count > 6 ? try line.number(6) : nil
            rows.append(Row(line: line, frame: frame, id: id, box: box, confidence: confidence))
        }
        return rows
    }

    /// The boxes grouped by frame in file order, every row kept, as the devkit reads them.
    public static func parse(_ text: String) throws(LabelFileError) -> [Int: [IdentifiedBox]] {
        var frames: [Int: [IdentifiedBox]] = [:]
        for row in try rows(text) { frames[row.frame, default: []].append(IdentifiedBox(id: row.id, rect: row.box)) }
        return frames
    }
    /// Scores `hypotheses` against `truth`, frame by frame over every frame either names.
    public static func evaluate(
        truth: [Int: [IdentifiedBox]], hypotheses: [Int: [IdentifiedBox]],
        maximumDistance: Double = 0.5
    ) -> TrackingSummary {
        var accuracy = TrackingAccuracy(maximumDistance: maximumDistance)
        for frame in Set(truth.keys).union(hypotheses.keys).sorted() {
            accuracy.add(frame: frame, objects: truth[frame] ?? [], hypotheses: hypotheses[frame] ?? [])
        }
        return accuracy.summary
    }
}
