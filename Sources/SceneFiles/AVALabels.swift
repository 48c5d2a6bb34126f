import Bench
import DockCore
import Foundation
import Simulation

/// Faces and who speaks, from an AVA ActiveSpeaker CSV: `video_id,frame_timestamp,x1,y1,x2,y2,
/// label,entity_id` a line, the box's corners as fractions of the picture from its top left,
/// the label `SPEAKING_AUDIBLE`, `SPEAKING_NOT_AUDIBLE` or `NOT_SPEAKING`, one line per face per
/// labelled instant. Timestamps are seconds of the source film; `start` is the one the video's
/// first frame shows (the file's earliest when not given). Entities become people 1, 2, … in
/// the order they first appear. Only audible speech counts as speaking, as for the microphones.
public enum AVALabels {
    static let names = ["video_id", "frame_timestamp", "x1", "y1", "x2", "y2", "label", "entity_id"]
    static let labels: Set<String> = ["SPEAKING_AUDIBLE", "SPEAKING_NOT_AUDIBLE", "NOT_SPEAKING"]

    public struct Labels: Sendable {
        public var people: [LabelledTruth.Person]
        public var speech: [LabelledTruth.Speech]
        /// Each entity's person id.
        public var entities: [String: Int]
    }

    struct Row {
        var time: Double
        var box: PixelRect
        var speaking: Bool
    }

    public static func read(_ text: String, start: Double? = nil, video: LabelledVideo) throws(LabelFileError) -> Labels
    {
        let lines = LabelLine.lines(of: text, names: names) { $0 == "," }
        var rows: [String: [Row]] = [:]
        var order: [String] = []
        var film: Substring?
        for line in lines {
            guard line.fields.count >= 8 else {
                throw line.error(line.fields.count, "a line has the eight AVA fields (\(line.fields.count) here)")
            }
            if film == nil { film = line.fields[0] }
            guard line.fields[0] == film else {
                throw line.error(
                    0, "\(line.fields[0]) is a second video (the first is \(film!)): give one video's lines")
            }
            let corners = [try line.number(2), try line.number(3), try line.number(4), try line.number(5)]
            for (index, value) in corners.enumerated() where !(0...1).contains(value) {
                throw line.error(2 + index, "\(value) is outside 0…1 (AVA's corners are fractions of the picture)")
            }
            guard corners[0] < corners[2] else { throw line.error(4, "x2 must be right of x1") }
            guard corners[1] < corners[3] else { throw line.error(5, "y2 must be below y1") }
            let label = String(line.fields[6])
            guard labels.contains(label) else {
                throw line.error(6, "\(label) is not one of \(labels.sorted().joined(separator: ", "))")
            }
            let w = Double(video.size.width)
            let h = Double(video.size.height)
            let entity = String(line.fields[7])
            if rows[entity] == nil { order.append(entity) }
            rows[entity, default: []].append(
                Row(
                    time: try line.number(1),
                    box: PixelRect(
                        x: corners[0] * w, y: corners[1] * h, width: (corners[2] - corners[0]) * w,
                        height: (corners[3] - corners[1]) * h),
                    speaking: label == "SPEAKING_AUDIBLE"))
        }
        guard let first = rows.values.flatMap({ $0.map(\.time) }).min() else {
            throw LabelFileError(line: 1, field: "the file", problem: "has no labelled face")
        }
        let origin = start ?? first
        var labels = Labels(people: [], speech: [], entities: [:])
        for (index, entity) in order.enumerated() {
            let id = index + 1
            labels.entities[entity] = id
            let (person, speech) = try track(rows[entity]!, id: id, origin: origin, video: video, lines: lines)
            labels.people.append(person)
            labels.speech += speech
        }
        return labels
    }

    /// One entity's rows: its boxes at their frames (gaps of over half a second hidden) and its
    /// speaking runs as spans, each row standing for the interval around its instant.
    static func track(
        _ rows: [Row], id: Int, origin: Double, video: LabelledVideo, lines: [LabelLine]
    ) throws(LabelFileError) -> (LabelledTruth.Person, [LabelledTruth.Speech]) {
        let sorted = rows.sorted { $0.time < $1.time }
        var boxes: [Int: PixelRect] = [:]
        for row in sorted {
            let frame = Int(((row.time - origin) * video.frameRate).rounded())
            guard (0..<video.frameCount).contains(frame) else {
                let line = lines.first { $0.fields.count > 1 && Double($0.fields[1]) == row.time }
                throw LabelFileError(
                    line: line?.number ?? 1, field: "field 2 (frame_timestamp)",
                    problem: String(
                        format: "%.3f s is outside the video (%.3f…%.3f s of the film)", row.time, origin,
                        origin + video.duration))
            }
            if boxes[frame] == nil { boxes[frame] = row.box }
        }
        let gaps = zip(sorted, sorted.dropFirst()).map { $1.time - $0.time }.filter { $0 > 0 }.sorted()
        let step = gaps.isEmpty ? 1 / video.frameRate : gaps[gaps.count / 2]
        var speech: [LabelledTruth.Speech] = []
        var run: (from: Double, to: Double)?
        for row in sorted {
            let here = (row.time - origin - step / 2, row.time - origin + step / 2)
            if row.speaking, let current = run, here.0 <= current.to + step / 2 {
                run = (current.from, here.1)
            } else {
                if let current = run { speech.append(span(current, id: id, video: video)) }
                run = row.speaking ? here : nil
            }
        }
        if let current = run { speech.append(span(current, id: id, video: video)) }
        let gap = max(1, Int((0.5 * video.frameRate).rounded()))
        return (labelledPerson(id: id, boxes: boxes, gap: gap), speech)
    }

    static func span(_ run: (from: Double, to: Double), id: Int, video: LabelledVideo) -> LabelledTruth.Speech {
        LabelledTruth.Speech(id: id, span: TimeSpan(max(0, run.from), min(video.duration, run.to)))
    }
}
