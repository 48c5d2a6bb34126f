import Foundation

/// How long each person has been heard in their current utterance: the audio windows of speech
/// attributed to them, added up from the first, through pauses between phrases shorter than
/// `gap`. Counted from the raw windows, not from a smoothed confidence, so a turn is measured
/// from its first word; the speaker policy confirms a new speaker on it. A cough is a short
/// utterance; a turn that opens with one word and a breath is one utterance.
public struct Utterances: Sendable {
    /// The longest pause (s) inside one utterance.
    public var gap = 0.75

    private var voiced: [UUID: Double] = [:]
    private var quiet: [UUID: Double] = [:]

    public init() {}

    /// One window of `seconds`: `speakers` are the people the speech in it is attributed to
    /// (none in silence).
    public mutating func hear(_ speakers: Set<UUID>, for seconds: Double) {
        for uuid in speakers {
            voiced[uuid, default: 0] += seconds
            quiet[uuid] = 0
        }
        for uuid in voiced.keys where !speakers.contains(uuid) {
            let pause = (quiet[uuid] ?? 0) + seconds
            if pause > gap {
                voiced[uuid] = nil
                quiet[uuid] = nil
            } else {
                quiet[uuid] = pause
            }
        }
    }

    /// Seconds of speech heard from `uuid` in their current utterance (0 when they are not
    /// talking).
    public func heard(_ uuid: UUID) -> Double { voiced[uuid] ?? 0 }

    /// Everyone talking now, with their seconds heard.
    public var all: [UUID: Double] { voiced }
}
