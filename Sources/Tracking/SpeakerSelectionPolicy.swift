import DockCore
import Foundation

public struct SpeakerPolicyConfiguration: Sendable, Hashable {
    /// A person counts as speaking above this speakingConfidence.
    public var speakingThreshold = 0.4
    /// A new speaker must have been heard this long in their current utterance before the
    /// camera moves to them (a cough is shorter).
    public var confirmation = 0.4
    /// Gaps shorter than this (between words and phrases) do not interrupt someone's speaking.
    public var gapTolerance = 0.5
    /// The camera stays at least this long with a speaker before moving to another.
    public var minimumDwell = 2.0
    /// When the speaker pauses, the camera waits this long before falling back.
    public var hold = 3.0
    /// Frame several people together when they take turns quickly: this many changes of
    /// speaker requested within `groupWindow` seconds. 0 turns group framing off.
    public var groupTurns = 2
    public var groupWindow = 10.0
    /// A group goes back to one person when they alone have talked this long (they hold the floor).
    public var floorHold = 6.0

    public init() {}
}

/// Whom automatic framing follows: the speaker, with hysteresis — a confirmation before a
/// switch, a minimum dwell, a hold through pauses, group framing when people trade turns
/// quickly — else the fallback (the person looking at the camera, else saliency rank 1).
/// Pure: time comes with each update (a manual clock in tests).
public struct SpeakerSelectionPolicy: Sendable {
    public let configuration: SpeakerPolicyConfiguration
    /// Who is framed: one person, several (a group), or nobody yet.
    public private(set) var chosen: [UUID] = []
    /// True while `chosen` are speakers (not the fallback).
    public private(set) var followsSpeech = false
    public private(set) var switches = 0
    /// True while someone framed (for their speech or as the fallback) is heard.
    public private(set) var framedHeard = false

    private var chosenSince: MonotonicInstant?
    private var lastSpeech: MonotonicInstant?
    private var lastHeard: [UUID: MonotonicInstant] = [:]
    /// When each was last heard, within the group window (all that is read of it).
    private var spokeAt: [UUID: MonotonicInstant] = [:]
    /// When each was last the only one heard, within the group window: a word of their own,
    /// not a sound shared with another.
    private var spokeAloneAt: [UUID: MonotonicInstant] = [:]
    private var requests: [(time: MonotonicInstant, uuid: UUID)] = []
    /// The one person talking, since when nobody else has.
    private var soleSpeaker: (uuid: UUID, since: MonotonicInstant)?

    public init(configuration: SpeakerPolicyConfiguration = SpeakerPolicyConfiguration()) {
        self.configuration = configuration
    }

    /// `speaking`: speakingConfidence per present person; `uttered`: what each has said in their
    /// current utterance; `fallback`: whom to frame without speech;
    /// `fits`: whether people can be framed together (a group wider than the view cannot);
    /// `share`: each one's share of the recent speech (a framed talker with the larger share
    /// keeps the camera); `unseen`: people out of the picture, whose turn would take the framed
    /// talker out of it.
    @discardableResult
    public mutating func update(
        at time: MonotonicInstant, speaking: [UUID: Double], uttered: Utterances, fallback: UUID?,
        fits: (Set<UUID>) -> Bool = { _ in true }, share: [UUID: Double] = [:], unseen: Set<UUID> = []
    ) -> [UUID] {
        let c = configuration
        let heard = Set(speaking.filter { $0.value >= c.speakingThreshold }.keys)
        for uuid in heard { lastHeard[uuid] = time }
        for uuid in heard { spokeAt[uuid] = time }
        if heard.count == 1, let only = heard.first { spokeAloneAt[only] = time }
        // Bounded by who spoke lately, however many people come and go in a run of days.
        for (uuid, at) in spokeAt where time.seconds(since: at) > c.groupWindow { spokeAt[uuid] = nil }
        for (uuid, at) in spokeAloneAt where time.seconds(since: at) > c.groupWindow { spokeAloneAt[uuid] = nil }
        // Someone is speaking until silent for longer than a gap between phrases.
        for (uuid, last) in lastHeard where time.seconds(since: last) > c.gapTolerance { lastHeard[uuid] = nil }
        let speakers = Set(lastHeard.keys).filter { speaking[$0] != nil }
        if speakers.count > 1 {
            soleSpeaker = nil
        } else if let only = speakers.first, soleSpeaker?.uuid != only {
            soleSpeaker = (only, time)
        }
        // The loudest confirmed speaker not framed now asks for the camera: confirmed by how
        // long they have been heard in this utterance (a cough is short).
        let confirmed = speakers.filter { uttered.heard($0) >= c.confirmation - 1e-9 }
        // The person framed anyway (the fallback) is the only one talking: from now on the
        // camera follows them as the speaker, so the next speaker's request is a turn. Not when
        // someone else is heard as well (the sound cannot tell them apart; the lips may yet).
        if !followsSpeech, chosen.count == 1, confirmed == Set(chosen) { followsSpeech = true }
        if followsSpeech, !heard.isDisjoint(with: chosen) { lastSpeech = time }
        var candidate = confirmed.filter { !chosen.contains($0) }.max { (speaking[$0] ?? 0) < (speaking[$1] ?? 0) }
        // A framed speaker who is plainly still talking keeps the camera from a challenger heard
        // no better: two people the sound cannot tell apart (the same bearing) do not take it
        // from each other, and a pause between phrases does not hand it to the other half of a
        // tie. Plainly talking: heard now and within 0.1 of the challenger, or heard more than
        // 0.2 s after the challenger was last heard. The fallback framed and heard as well as
        // the challenger keeps the camera too: it may be the talker, and the lips may yet say.
        // And in a pause nobody is heard in, the one framed is not replaced by someone fainter.
        // Nor is a talker still in their utterance, trailing off, with the larger share, by
        // someone out of the picture: a turn there takes the talker out of it, and what is heard
        // there may be typing or a reflection (a real turn outlasts the utterance's gap).
        // Unless the challenger's turn would widen the picture to a group: the talker stays in it.
        if let challenger = candidate, let challengerHeard = lastHeard[challenger],
            chosen.contains(where: { framed in
                let framedShare = share[framed].map { $0 >= (share[challenger] ?? 0) } == true
                if followsSpeech, unseen.contains(challenger), framedShare, uttered.heard(framed) > 0,
                    !framesTogether(adding: challenger, at: time, speaking: speaking, fits: fits)
                {
                    return true
                }
                guard speakers.contains(framed), let framedLast = lastHeard[framed] else { return false }
                let level = speaking[framed] ?? 0
                let challengerLevel = speaking[challenger] ?? 0
                let tie = heard.contains(framed) && level >= challengerLevel - 0.1
                let fainter = !heard.contains(challenger) && challengerLevel <= level
                guard followsSpeech else { return tie || fainter }
                if fainter { return true }
                return tie || framedLast.seconds(since: challengerHeard) > 0.2
                    || (heard.contains(framed) && framedShare)
            })
        {
            candidate = nil
        }
        if let candidate {
            // Requests made while a speaker is framed are turns; the first speaker is not one,
            // unless the person framed anyway spoke a moment ago (a conversation under way).
            let framedSpoke = chosen.contains { spokeAt[$0].map { time.seconds(since: $0) <= c.groupWindow } ?? false }
            // The one framed anyway said a word of their own, too short to follow, and another
            // answers: an exchange has begun, and their word counts as its first turn.
            let framedSaidAWord = chosen.contains {
                spokeAloneAt[$0].map { time.seconds(since: $0) <= c.groupWindow } ?? false
            }
            if !followsSpeech && framedSaidAWord {
                for framed in chosen where !requests.contains(where: { $0.uuid == framed }) {
                    requests.append((spokeAloneAt[framed] ?? time, framed))
                }
            }
            if (followsSpeech || framedSpoke) && requests.last?.uuid != candidate { requests.append((time, candidate)) }
            requests.removeAll { time.seconds(since: $0.time) > c.groupWindow }
            let dwelt = chosenSince.map { time.seconds(since: $0) >= c.minimumDwell } ?? true
            let group = framing(with: requests, speaking: speaking)
            let trading =
                c.groupTurns > 0 && (followsSpeech || framedSaidAWord) && requests.count >= c.groupTurns
                && fits(Set(group))
            if trading {
                // People trading turns: frame them together rather than swing between them. At
                // once: widening the picture keeps whoever is framed in it, so it is no swing.
                choose(group, at: time, speech: true)
            } else if !followsSpeech || dwelt {
                choose([candidate], at: time, speech: true)
            }
        }

        // One of a group has held the floor a while: frame them alone.
        if followsSpeech, chosen.count > 1, let sole = soleSpeaker, chosen.contains(sole.uuid),
            heard.contains(sole.uuid),
            time.seconds(since: sole.since) >= c.floorHold
        {
            choose([sole.uuid], at: time, speech: true)
            requests.removeAll()
        }
        // Speech over for longer than the hold: back to the fallback.
        if followsSpeech, let last = lastSpeech, time.seconds(since: last) > c.hold {
            choose(fallback.map { [$0] } ?? [], at: time, speech: false)
        } else if !followsSpeech, chosen.first != fallback {
            chosen = fallback.map { [$0] } ?? []
            chosenSince = time
        }
        // A framed person who has left the scene is dropped from the choice.
        let present = chosen.filter { speaking[$0] != nil || $0 == fallback }
        if present.count != chosen.count {
            chosen = present.isEmpty ? (fallback.map { [$0] } ?? []) : present
            if present.isEmpty { followsSpeech = false }
        }
        framedHeard = !heard.isDisjoint(with: chosen)
        return chosen
    }

    /// Whether a turn of `challenger` now would frame people together (a group that fits the
    /// view, the ones framed among it) rather than swing to them alone.
    private func framesTogether(
        adding challenger: UUID, at time: MonotonicInstant, speaking: [UUID: Double], fits: (Set<UUID>) -> Bool
    ) -> Bool {
        let c = configuration
        guard c.groupTurns > 0, followsSpeech else { return false }
        var recent = requests.filter { time.seconds(since: $0.time) <= c.groupWindow }
        if recent.last?.uuid != challenger { recent.append((time, challenger)) }
        guard recent.count >= c.groupTurns else { return false }
        return fits(Set(framing(with: recent, speaking: speaking)))
    }

    /// The ones framed with everyone present who asked for the camera in `turns`.
    private func framing(with turns: [(time: MonotonicInstant, uuid: UUID)], speaking: [UUID: Double]) -> [UUID] {
        var group = chosen
        for turn in turns where !group.contains(turn.uuid) && speaking[turn.uuid] != nil { group.append(turn.uuid) }
        return group
    }

    private mutating func choose(_ uuids: [UUID], at time: MonotonicInstant, speech: Bool) {
        if uuids != chosen && !chosen.isEmpty && speech { switches += 1 }
        chosen = uuids
        chosenSince = time
        followsSpeech = speech
        if speech { lastSpeech = time }
        if !speech { requests.removeAll() }
    }
}
