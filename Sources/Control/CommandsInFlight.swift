import DockCore

/// The commands a head with latency L has been sent but not yet acted on. Over the next L
/// seconds it turns at the rates it was sent over the last L, so that is where it will be when
/// a new command lands; its velocity now says only what it does this instant, and on a slow
/// head that is still speeding up the difference is the overshoot.
struct CommandsInFlight: Sendable {
    private var sent: [(time: Double, command: Vector3D)] = []
    /// Longer than this between commands (s), someone else may have moved the head: the record
    /// starts again.
    static let gap = 0.25

    /// Notes the command sent at `time`, keeping what the next `horizon` seconds need.
    mutating func record(_ command: Vector3D, at time: Double, horizon: Double) {
        if let last = sent.last {
            if time <= last.time {
                sent.removeLast()  // a second command for the same moment replaces the first
            } else if time - last.time > Self.gap {
                sent.removeAll()
            }
        }
        sent.append((time, command))
        // Keep one entry older than the horizon: it is the one in force at its start.
        while sent.count > 1 && sent[1].time <= time - horizon { sent.removeFirst() }
    }

    /// How far (rad per axis) the head turns between `now` and `now + latency` on the commands
    /// already sent; nil until they reach back `latency` seconds, or after a pause in them.
    func travel(at now: Double, latency: Double) -> Vector3D? {
        let start = now - latency
        guard let first = sent.first, first.time <= start, now - sent[sent.count - 1].time <= Self.gap else {
            return nil
        }
        var travel = Vector3D()
        for (index, entry) in sent.enumerated() {
            let end = index + 1 < sent.count ? sent[index + 1].time : now
            let overlap = min(end, now) - max(entry.time, start)
            if overlap > 0 { travel = travel + entry.command * overlap }
        }
        return travel
    }
}
