/// How the framed identity follows the speakers, from per-frame truth and choice alone.
///
/// The framed identity is who is framed, held through frames where nothing is (a head slewing
/// from one person to the next frames nobody for a while): so a switch is a change of framed
/// identity whatever frames lie between, and a switch to the wrong person cannot hide in a slew.
public struct SpeakerSwitches: Sendable, Hashable {
    /// Every change of framed identity (a group framed or left counts too).
    public let switches: Int
    /// Changes to a framing without the person it should hold: the speaker while someone
    /// speaks; while nobody speaks, the last speaker or the person framed when nobody speaks.
    public let falseSwitches: Int
    /// For each change of speaker (after the first speaker): seconds from the start of the new
    /// speech to the framed identity settling on the speaker (holding them for as long as they
    /// speak); nil when it never settled while they spoke.
    public let latencies: [Double?]

    /// - Parameters:
    ///   - times: frame times (s).
    ///   - framed: everyone framed in each frame (empty: nobody).
    ///   - speakers: who speaks in each frame (nil: nobody).
    ///   - quietTargets: whom to frame in each frame while nobody speaks (nil: nobody in particular).
    public init(times: [Double], framed: [Set<Int>], speakers: [Int?], quietTargets: [Int?]) {
        precondition(
            times.count == framed.count && framed.count == speakers.count && speakers.count == quietTargets.count)
        let held = Self.held(framed)
        var switches = 0
        var falseSwitches = 0
        var lastSpeaker: Int?
        for index in held.indices {
            if index > 0, !held[index - 1].isEmpty, held[index] != held[index - 1] {
                switches += 1
                let rightful = speakers[index].map { [$0] } ?? [lastSpeaker, quietTargets[index]].compactMap { $0 }
                if !rightful.isEmpty && !rightful.contains(where: held[index].contains) { falseSwitches += 1 }
            }
            if let speaker = speakers[index] { lastSpeaker = speaker }
        }
        self.switches = switches
        self.falseSwitches = falseSwitches
        latencies = Self.latencies(times: times, held: held, speakers: speakers)
    }

    /// Who is framed, carried through frames where nobody is.
    static func held(_ framed: [Set<Int>]) -> [Set<Int>] {
        var out: [Set<Int>] = []
        out.reserveCapacity(framed.count)
        for set in framed { out.append(set.isEmpty ? (out.last ?? []) : set) }
        return out
    }

    static func latencies(times: [Double], held: [Set<Int>], speakers: [Int?]) -> [Double?] {
        // Turns: where each new speaker starts, up to where the next one does.
        var starts: [(index: Int, speaker: Int)] = []
        for (index, speaker) in speakers.enumerated() {
            guard let speaker, speaker != starts.last?.speaker else { continue }
            starts.append((index, speaker))
        }
        guard starts.count > 1 else { return [] }
        return (1..<starts.count).map { turn in
            let (start, speaker) = starts[turn]
            let next = turn + 1 < starts.count ? starts[turn + 1].index : held.count
            // Held through the speech: up to the speaker's last frame before the next speaker.
            let end = ((start..<next).last { speakers[$0] == speaker } ?? start) + 1
            // The last frame of the speech that does not hold the speaker; settled just after it.
            let lastMiss = (start..<end).last { !held[$0].contains(speaker) }
            let settled = lastMiss.map { $0 + 1 } ?? start
            return settled < end ? times[settled] - times[start] : nil
        }
    }
}
