import DockCore

/// Turn-taking for Pelco-D on a half-duplex RS-485 bus, pure: a head answers a position query on
/// the same pair of wires the host talks on, so while an answer is due nothing else goes out — not
/// the next query, not a command. A poll asks for pan, then, once pan is answered or its answer
/// is overdue, for tilt; commands that come meanwhile wait for the bus, in order, except that a
/// newer move replaces a waiting one.
struct PelcoDBusTurns: Sendable {
    enum Query: Sendable, Equatable { case pan, tilt }
    enum Output: Sendable, Equatable {
        case command(PelcoD.Message)
        case query(Query)
    }

    /// How long an answer may take before the bus is the host's again (seconds). A 7-byte reply
    /// lasts 29 ms at 2400 baud, Pelco's usual rate; the head adds its own delay.
    var answerTimeout = 0.1
    /// Seconds between the starts of two polls.
    var pollInterval = 0.1
    private(set) var awaiting: (query: Query, since: MonotonicInstant)?
    private var lastPoll: MonotonicInstant?
    private var held: [(message: PelcoD.Message, isMove: Bool)] = []
    /// Queries whose answer never came.
    private(set) var unanswered = 0

    /// A command to send: at once when the bus is free, else when the awaited answer has come.
    mutating func command(_ message: PelcoD.Message, isMove: Bool, at time: MonotonicInstant) -> [Output] {
        let out = expire(at: time)
        guard awaiting != nil else { return out + [.command(message)] }
        if isMove, let waiting = held.firstIndex(where: \.isMove) { held.remove(at: waiting) }
        held.append((message, isMove))
        return out
    }

    /// On every control tick: gives the bus back after an overdue answer, starts a poll when due.
    mutating func tick(at time: MonotonicInstant) -> [Output] {
        var out = expire(at: time)
        guard awaiting == nil else { return out }
        if let last = lastPoll, time >= last, time.seconds(since: last) < pollInterval { return out }
        lastPoll = time
        awaiting = (.pan, time)
        out.append(.query(.pan))
        return out
    }

    /// An answer came; a stale one (to a query given up on) changes nothing.
    mutating func answered(_ query: Query, at time: MonotonicInstant) -> [Output] {
        guard awaiting?.query == query else { return [] }
        awaiting = nil
        return proceed(after: query, at: time)
    }

    private mutating func expire(at time: MonotonicInstant) -> [Output] {
        guard let (query, since) = awaiting, time.seconds(since: since) >= answerTimeout else { return [] }
        awaiting = nil
        unanswered += 1
        return proceed(after: query, at: time)
    }

    /// The bus is free: waiting commands first (they have no answer), then tilt after pan.
    private mutating func proceed(after query: Query, at time: MonotonicInstant) -> [Output] {
        var out = release()
        if query == .pan {
            awaiting = (.tilt, time)
            out.append(.query(.tilt))
        }
        return out
    }

    private mutating func release() -> [Output] {
        defer { held.removeAll() }
        return held.map { .command($0.message) }
    }
}
