import DockCore
import Foundation

/// Reads the MOTChallenge text format: one box a line, `frame,id,x,y,width,height,confidence,…`
/// (commas or blanks between fields; pixels, top-left origin). Boxes are grouped by frame in
/// file order.
public enum MOTChallengeFile {
    public struct FormatError: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "line \(line): '\(text)' is not 'frame,id,x,y,width,height,…' with numbers" }
    }

    public static func parse(_ text: String) throws(FormatError) -> [Int: [IdentifiedBox]] {
        var frames: [Int: [IdentifiedBox]] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let fields = line.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map { Double($0) }
            // Frame and id are whole numbers a frame counter could reach; boxes are finite.
            let whole = -1e9...1e9
            guard fields.count >= 6, let frame = fields[0], let id = fields[1], let x = fields[2], let y = fields[3],
                let w = fields[4], let h = fields[5], whole.contains(frame), whole.contains(id),
                frame == frame.rounded(), id == id.rounded(), [x, y, w, h].allSatisfy(\.isFinite), w >= 0, h >= 0
            else { throw FormatError(line: index + 1, text: String(line.prefix(80))) }
            frames[Int(frame), default: []].append(
                IdentifiedBox(id: Int(id), rect: PixelRect(x: x, y: y, width: w, height: h)))
        }
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
