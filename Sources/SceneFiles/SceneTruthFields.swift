import Capture
import DockCore
import Foundation
import Simulation

/// A recording's `truth` (docs/scenes.md): its people's face boxes and who speaks when, typed
/// into the scene or read from label files in standard formats (`mot`, `rttm`, `ava`).
extension BenchScene {
    static func readLabelledTruth(_ fields: JSONFields?, video: LabelledVideo, resolve: (String) -> String)
        throws(JSONFieldError) -> LabelledTruth
    {
        guard let fields else {
            throw JSONFieldError(
                path: "truth", problem: "is required for a recording: the people's face boxes (or a mot or ava file)")
        }
        let imported = try readLabelFiles(fields, video: video, resolve: resolve)
        var ids = Set<Int>()
        let typed = try fields.objects("people") { (p) throws(JSONFieldError) in
            let person = try readPerson(p, video: video)
            guard ids.insert(person.id).inserted else { throw p.error("id", "\(person.id) is used twice") }
            return person
        }
        if typed != nil, imported.people != nil {
            throw fields.error("people", "give the people's boxes once: typed here, or from a mot or ava file")
        }
        guard let people = typed ?? imported.people, !people.isEmpty else {
            throw fields.error("people", "is required: at least one person with face boxes (or a mot or ava file)")
        }
        ids = Set(people.map(\.id))
        let duration = video.duration
        let typedSpeech = try fields.objects("speech") { (s) throws(JSONFieldError) -> LabelledTruth.Speech in
            guard let id = try s.integer("id", in: 0...1_000_000), ids.contains(id) else {
                throw s.error(
                    "id", "must name one of the people (\(ids.sorted().map(String.init).joined(separator: ", ")))")
            }
            guard let from = try s.number("from_s", in: 0...duration),
                let to = try s.number("to_s", in: 0...duration), from < to
            else {
                throw s.error("to_s", "expects from_s < to_s within the video (0…\(JSONFields.format(duration)) s)")
            }
            return LabelledTruth.Speech(id: id, span: TimeSpan(from, to))
        }
        if typedSpeech != nil, imported.speech != nil {
            throw fields.error("speech", "give who speaks once: typed here, or from an rttm or ava file")
        }
        if let stranger = imported.speech?.first(where: { !ids.contains($0.id) }) {
            throw fields.error("rttm_speakers", "person \(stranger.id) has no face boxes")
        }
        return LabelledTruth(people: people, speech: typedSpeech ?? imported.speech ?? [], frameRate: video.frameRate)
    }

    /// One typed person: `id`, `faces` keyframes in video pixels, `hidden` frame ranges.
    static func readPerson(_ p: JSONFields, video: LabelledVideo) throws(JSONFieldError) -> LabelledTruth.Person {
        guard let id = try p.integer("id", in: 0...1_000_000) else { throw p.error("id", "is required") }
        guard let rows = try p.tuples("faces", length: 5...5, shape: "[frame, x, y, width, height]"), !rows.isEmpty
        else { throw p.error("faces", "is required: [[frame, x, y, width, height], …] in video pixels") }
        var keyframes: [LabelledTruth.Keyframe] = []
        for (index, row) in rows.enumerated() {
            let rowPath = p.child("faces") + "[\(index)]"
            guard row[0] == row[0].rounded(), row[0] >= 0, row[0] < Double(video.frameCount) else {
                throw JSONFieldError(
                    path: rowPath,
                    problem:
                        "frame \(JSONFields.format(row[0])) is not a frame of the video (0…\(video.frameCount - 1))")
            }
            if let last = keyframes.last, Int(row[0]) <= last.frame {
                throw JSONFieldError(path: rowPath, problem: "frames must increase")
            }
            let rect = PixelRect(x: row[1], y: row[2], width: row[3], height: row[4])
            guard rect.width > 0, rect.height > 0, video.contains(rect) else {
                throw JSONFieldError(
                    path: rowPath, problem: "the box must have a size and its centre inside the \(video.size) video")
            }
            keyframes.append(.init(frame: Int(row[0]), face: rect))
        }
        var hidden: [ClosedRange<Int>] = []
        let pairs = try p.tuples("hidden", length: 2...2, shape: "[first_frame, last_frame]") ?? []
        for (index, pair) in pairs.enumerated() {
            guard pair[0] <= pair[1], pair[0] >= Double(keyframes.first!.frame),
                pair[1] <= Double(keyframes.last!.frame)
            else {
                throw JSONFieldError(
                    path: p.child("hidden") + "[\(index)]",
                    problem: "expects first ≤ last within the person's labelled frames")
            }
            hidden.append(Int(pair[0])...Int(pair[1]))
        }
        return LabelledTruth.Person(id: id, keyframes: keyframes, hidden: hidden)
    }

    /// The label files `truth` names: `mot` (boxes), `rttm` with `rttm_speakers` (who speaks),
    /// `ava` with an optional `ava_start_s` (boxes and who speaks). A file's problem names the
    /// key, the file, its line and its field.
    static func readLabelFiles(_ fields: JSONFields, video: LabelledVideo, resolve: (String) -> String)
        throws(JSONFieldError) -> (people: [LabelledTruth.Person]?, speech: [LabelledTruth.Speech]?)
    {
        func text(_ key: String) throws(JSONFieldError) -> (path: String, text: String)? {
            guard let path = try fields.string(key).map(resolve) else { return nil }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw fields.error(key, "cannot read \(path)")
            }
            return (path, text)
        }
        var people: [LabelledTruth.Person]?
        var speech: [LabelledTruth.Speech]?
        if let mot = try text("mot") {
            do { people = try MOTLabels.people(mot.text, video: video) } catch {
                throw fields.error("mot", "\(mot.path): \(error)")
            }
        }
        if let ava = try text("ava") {
            let start = try fields.number("ava_start_s", in: 0...1e7)
            let labels: AVALabels.Labels
            do { labels = try AVALabels.read(ava.text, start: start, video: video) } catch {
                throw fields.error("ava", "\(ava.path): \(error)")
            }
            guard people == nil else { throw fields.error("ava", "give the people's boxes once: mot or ava") }
            (people, speech) = (labels.people, labels.speech)
        }
        var speakers: [String: Int] = [:]
        if let map = try fields.object("rttm_speakers") {
            for name in map.keys {
                guard let id = try map.integer(name, in: 0...1_000_000) else { continue }
                speakers[name] = id
            }
            try map.finish()
        }
        if let rttm = try text("rttm") {
            guard speech == nil else { throw fields.error("rttm", "give who speaks once: rttm or ava") }
            do { speech = try RTTMLabels.speech(rttm.text, speakers: speakers, duration: video.duration) } catch {
                throw fields.error("rttm", "\(rttm.path): \(error)")
            }
        }
        return (people, speech)
    }
}
