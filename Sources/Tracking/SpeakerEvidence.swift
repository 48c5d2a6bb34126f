import DockCore
import Foundation

/// speakingConfidence per person: voice activity attributed to people by how well the sound's
/// direction agrees with where each person is, smoothed over time. Lip activity, when known,
/// decides between people the sound could come from, and without a direction (one microphone,
/// an unclear one) it alone attributes the speech; with neither nobody's confidence rises.
public struct SpeakerEvidence: Sendable {
    /// How far (radians) a person may sit from the sound's direction and still be its source:
    /// the standard deviation of the agreement.
    public var directionSpread = 6 * Double.pi / 180
    /// Directions whose GCC-PHAT peak is below this are too unclear to attribute.
    public var minimumCoherence = 0.08
    /// Time constant of rising and falling confidence (s).
    public var timeConstant = 0.3
    /// Lips moving at least this much (0…1) count as talking.
    public var lipThreshold = 0.3
    /// A window's speech is someone's when their agreement with its direction is at least this
    /// (two spreads off at most) and at least half the best agreement.
    public var attributionLevel = exp(-2.0)
    /// How far (radians) from a voice someone may sit and still be given it: two spreads.
    public var attributionReach: Double { directionSpread * (-2 * log(attributionLevel)).squareRoot() }

    private var confidence: [UUID: Double] = [:]
    /// The share of the last second or so of speech each person was given: slower than the
    /// confidence, so a burst of reflections or a key struck does not outweigh a talker.
    public private(set) var recentShare: [UUID: Double] = [:]
    public var shareTimeConstant = 1.0
    /// What each person has said in their current utterance, window by window.
    public private(set) var utterances = Utterances()
    /// Whom the latest window's speech was given to (empty: silence, or a voice nobody is near).
    public private(set) var attributed: Set<UUID> = []
    /// Speech windows without a clear direction (between syllables, where only the front end's
    /// hangover says speech goes on) keep the last clear windows' attribution this long (s),
    /// when it is steady (the same in the last `carryAfterWindows` clear windows): a lone
    /// reflection is not carried.
    public var carrySeconds = 0.3
    public var carryAfterWindows = 2
    /// A clear window pointing where nobody sits is evidence against the talker, not just its
    /// absence: it is carried only when the attribution has held this many clear windows in a row
    /// (a word's reverberant tail, a few scattered windows near someone else, is not).
    public var carryAgainstDirectionWindows = 3
    /// The last clear attribution, how long it has been carried, and how many clear windows in a
    /// row have had it.
    private var lastClear: (target: [UUID: Double], attributed: Set<UUID>, age: Double, run: Int)?

    public init() {}

    /// One audio window: was there speech, and from which direction (radians, the same frame as
    /// `people`'s angles); `people` are the persons present with their current angles.
    /// `lips`: lip activity (0…1) of the people whose mouths were measured. `hidden`: people
    /// tracked but not seen in the latest frame (behind someone, or gone for a moment).
    public mutating func update(
        speech: Bool, direction: Double?, coherence: Double?, people: [(uuid: UUID, angle: Double)],
        lips: [UUID: Double] = [:], hidden: Set<UUID> = [], seconds: Double
    ) {
        var target: [UUID: Double] = [:]
        attributed = []
        if speech, let direction, (coherence ?? 1) >= minimumCoherence {
            for person in people {
                let d = (person.angle - direction) / directionSpread
                target[person.uuid] = exp(-0.5 * d * d)
            }
            // Someone hidden in the direction where someone is seen is behind them: the voice
            // is the one in front's.
            if people.contains(where: { !hidden.contains($0.uuid) && (target[$0.uuid] ?? 0) > 0.3 }) {
                for uuid in hidden where target[uuid] != nil { target[uuid] = 0 }
            }
            // Several people where the sound comes from: the one whose lips move most keeps the
            // credit, the others keep a share in proportion. Lips that nobody moves (or that
            // cannot be seen) change nothing.
            let candidates = people.filter { (target[$0.uuid] ?? 0) > 0.3 }
            let most = candidates.map { lips[$0.uuid] ?? 0 }.max() ?? 0
            if candidates.count > 1, most >= lipThreshold {
                for person in candidates { target[person.uuid]! *= 0.3 + 0.7 * (lips[person.uuid] ?? 0) / most }
            }
            let best = target.values.max() ?? 0
            attributed = Set(target.filter { $0.value >= attributionLevel && $0.value >= 0.5 * best }.keys)
            // The credit is relative to the best agreement: a room's reflections pull a voice's
            // direction several degrees toward the middle, and the one person near it is still
            // plainly the talker.
            if best >= attributionLevel {
                for uuid in target.keys { target[uuid]! /= best }
                let run = lastClear.map { $0.attributed == attributed ? $0.run + 1 : 1 } ?? 1
                lastClear = (target, attributed, 0, attributed.isEmpty ? 0 : run)
            } else if let clear = carried(for: seconds, afterRun: carryAgainstDirectionWindows) {
                // A voice from where nobody sits, in the middle of a steady talker's speech, is
                // their reflection off a wall more often than a new talker: it is carried as a
                // window without a direction is (the unseen-voice search hears it all the same).
                target = clear.target
                attributed = clear.attributed
            } else {
                lastClear = (target, attributed, 0, 0)
            }
        } else if speech {
            for person in people where (lips[person.uuid] ?? 0) >= lipThreshold {
                target[person.uuid] = lips[person.uuid]
                attributed.insert(person.uuid)
            }
            if attributed.isEmpty, let clear = carried(for: seconds, afterRun: carryAfterWindows) {
                target = clear.target
                attributed = clear.attributed
            }
        } else {
            lastClear = nil
        }
        utterances.hear(attributed, for: seconds)
        if speech {
            let beta = 1 - exp(-seconds / shareTimeConstant)
            for person in people {
                let old = recentShare[person.uuid] ?? 0
                recentShare[person.uuid] = old + beta * ((attributed.contains(person.uuid) ? 1 : 0) - old)
            }
            for uuid in recentShare.keys where !people.contains(where: { $0.uuid == uuid }) { recentShare[uuid] = nil }
        }
        let alpha = 1 - exp(-seconds / timeConstant)
        for person in people {
            let old = confidence[person.uuid] ?? 0
            confidence[person.uuid] = old + alpha * ((target[person.uuid] ?? 0) - old)
        }
        // People no longer present fade too.
        for uuid in confidence.keys where !people.contains(where: { $0.uuid == uuid }) {
            confidence[uuid]! *= 1 - alpha
            if confidence[uuid]! < 0.01 { confidence[uuid] = nil }
        }
    }

    /// The last clear windows' attribution, when it has held `afterRun` clear windows in a row
    /// and is young enough to carry over a window of `seconds`; the carry ages it.
    private mutating func carried(for seconds: Double, afterRun: Int) -> (
        target: [UUID: Double], attributed: Set<UUID>
    )? {
        guard let clear = lastClear, clear.run >= afterRun, clear.age + seconds <= carrySeconds else { return nil }
        lastClear?.age += seconds
        return (clear.target, clear.attributed)
    }

    public func speakingConfidence(_ uuid: UUID) -> Double? { confidence[uuid] }
    public var all: [UUID: Double] { confidence }
}
