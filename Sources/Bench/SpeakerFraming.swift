/// How well the camera framed whoever was talking, from per-frame truth and choice alone: the
/// figures a room and a real conversation are judged by.
public struct SpeakerFraming: Sendable, Hashable {
    /// Speaking frames with a speaker framed (while two overlap, either counts); nil: nobody spoke.
    public let rightSpeaker: Double?
    /// The same, leaving out the first `grace` seconds of each new speaker's turn: what a viewer
    /// sees once the camera has had the time a person needs to turn.
    public let rightSpeakerAfterGrace: Double?
    /// Speaking frames with a speaker's face anywhere in the picture.
    public let speakerInPicture: Double?
    /// Changes of speaker and of the framed identity. The first turn is a change of speaker when
    /// the camera first holds someone else in it (the one framed before anybody spoke): the
    /// fewest moves an operator who must frame somebody from the first frame needs.
    public let speakerChanges: Int
    public let framedChanges: Int
    /// Seconds per minute the view held nobody's face (the head looking at a wall, a fan, a door).
    public let facingNobodyPerMinute: Double?

    /// - Parameters:
    ///   - times: frame times (s); `framed`: who is framed in each frame; `speaking`: who speaks;
    ///   `inPicture`: whose face centre is in the view, not hidden.
    public init(
        times: [Double], framed: [Set<Int>], speaking: [Set<Int>], inPicture: [Set<Int>], grace: Double = 1.5
    ) {
        precondition(times.count == framed.count && framed.count == speaking.count && speaking.count == inPicture.count)
        var right = 0
        var rightAfter = 0
        var counted = 0
        var countedAfter = 0
        var pictured = 0
        var changes = 0
        let held = SpeakerSwitches.held(framed)
        var lastSpeaker: Int?
        var firstTurnUnframed = false
        var turnStart: (speaker: Int, time: Double)?
        for index in times.indices {
            let now = speaking[index]
            // The floor changes when its holder is silent and someone else talks: an overlap
            // is a change only once the other takes over.
            if !now.isEmpty, lastSpeaker.map({ !now.contains($0) }) ?? true {
                let newcomer = now.sorted().first { index > 0 && speaking[index - 1].contains($0) } ?? now.min()!
                // The first turn needs a move when the camera, at it or at its first framing
                // after it, holds someone else (the one framed before anybody spoke).
                firstTurnUnframed = lastSpeaker == nil && held[index].isEmpty
                if lastSpeaker != nil || !(held[index].isEmpty || held[index].contains(newcomer)) { changes += 1 }
                lastSpeaker = newcomer
                turnStart = (newcomer, times[index])
            }
            if firstTurnUnframed, !held[index].isEmpty, let first = lastSpeaker {
                firstTurnUnframed = false
                if !held[index].contains(first) { changes += 1 }
            }
            guard !now.isEmpty else { continue }
            counted += 1
            let isRight = !framed[index].isDisjoint(with: now)
            if isRight { right += 1 }
            if !inPicture[index].isDisjoint(with: now) { pictured += 1 }
            if let turn = turnStart, now.contains(turn.speaker), times[index] - turn.time < grace { continue }
            countedAfter += 1
            if isRight { rightAfter += 1 }
        }
        rightSpeaker = counted > 0 ? Double(right) / Double(counted) : nil
        rightSpeakerAfterGrace = countedAfter > 0 ? Double(rightAfter) / Double(countedAfter) : nil
        speakerInPicture = counted > 0 ? Double(pictured) / Double(counted) : nil
        speakerChanges = changes
        framedChanges = held.indices.dropFirst().filter { !held[$0 - 1].isEmpty && held[$0] != held[$0 - 1] }.count
        if let first = times.first, let last = times.last, last > first {
            let period = (last - first) / Double(times.count - 1)
            let nobody = inPicture.filter(\.isEmpty).count
            facingNobodyPerMinute = Double(nobody) * period / (last - first + period) * 60
        } else {
            facingNobodyPerMinute = nil
        }
    }

    /// Framed changes per change of speaker; nil without a change of speaker.
    public var changesPerSpeakerChange: Double? {
        speakerChanges > 0 ? Double(framedChanges) / Double(speakerChanges) : nil
    }
}
