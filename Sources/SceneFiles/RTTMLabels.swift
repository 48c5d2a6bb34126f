import Bench
import DockCore
import Foundation
import Simulation

/// Who speaks when, from an RTTM file (what diarization tools such as pyannote write):
/// `SPEAKER file channel start duration <NA> <NA> name <NA> <NA>` a line. Lines of other types
/// and `;;` comments are skipped; every speaker named must be given to a person.
public enum RTTMLabels {
    static let names = ["type", "file", "channel", "start", "duration", "orthography", "subtype", "name"]

    /// Turns within `duration` seconds (one running past it is cut there); `speakersKey` is the
    /// scene key whose map names the speakers, for the message when one is missing.
    public static func speech(
        _ text: String, speakers: [String: Int], duration: Double, speakersKey: String = "rttm_speakers"
    ) throws(LabelFileError) -> [LabelledTruth.Speech] {
        var speech: [LabelledTruth.Speech] = []
        let lines = LabelLine.lines(of: text, names: names, separators: { $0 == " " || $0 == "\t" }, comment: ";")
        for line in lines where line.fields.first == "SPEAKER" {
            guard line.fields.count >= 8 else {
                throw line.error(line.fields.count, "a SPEAKER line has ten fields, the speaker's name the eighth")
            }
            let start = try line.number(3)
            let length = try line.number(4)
            guard start >= 0 else { throw line.error(3, "a turn cannot start before the video") }
            guard length > 0 else { throw line.error(4, "a turn lasts more than 0 s") }
            // A turn may run a little past the last frame (the sound is often longer).
            guard start < duration else {
                throw line.error(3, "\(line.fields[3]) s is after the video's end (\(format(duration)) s)")
            }
            let name = String(line.fields[7])
            guard let person = speakers[name] else {
                let known = speakers.keys.sorted().joined(separator: ", ")
                throw line.error(
                    7, "speaker \(name) is given to no person (rttm_speakers has \(known.isEmpty ? "none" : known))")
            }
            speech.append(
                LabelledTruth.Speech(id: person, span: TimeSpan(start, min(start + length, duration))))
        }
        return speech
    }

    static func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}
