import Foundation

/// A server-sent event stream for one client: events are queued by whoever publishes them
/// (never blocking the publisher), at most `capacity` waiting — a client that stops reading
/// loses the oldest, counted — and sent on the connection's own thread. A comment line every
/// `keepAlive` seconds of silence finds clients that went away.
final class EventStream: HTTPBodyStream, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var closed = false
    private(set) var dropped = 0
    private var lastSent = Date()
    let capacity: Int
    let keepAlive: Double
    /// Undo the subscription (and the count of clients) when the client goes away.
    private var onClose: [@Sendable () -> Void] = []
    /// Told of each event dropped, and whether it is this client's first.
    private var onDrop: (@Sendable (_ first: Bool) -> Void)?

    init(capacity: Int = 64, keepAlive: Double = 10, first: [[UInt8]] = []) {
        self.capacity = capacity
        self.keepAlive = keepAlive
        queue = first
    }

    func whenClosed(_ action: @escaping @Sendable () -> Void) {
        condition.lock()
        onClose.append(action)
        condition.unlock()
    }

    func whenDropping(_ action: @escaping @Sendable (_ first: Bool) -> Void) {
        condition.lock()
        onDrop = action
        condition.unlock()
    }

    /// Queues one event (already encoded); callable from any thread.
    func push(_ bytes: [UInt8]) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return
        }
        var dropping: (@Sendable (Bool) -> Void)?
        if queue.count >= capacity {
            queue.removeFirst()
            dropped += 1
            dropping = onDrop
        }
        queue.append(bytes)
        condition.signal()
        let first = dropped == 1
        condition.unlock()
        dropping?(first)
    }

    /// Ends the stream after what is queued.
    func finish() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func next(waiting: Double) -> StreamChunk {
        condition.lock()
        defer { condition.unlock() }
        if queue.isEmpty && !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: waiting)) }
        if !queue.isEmpty {
            lastSent = Date()
            return .bytes(queue.removeFirst())
        }
        if closed { return .end }
        if Date().timeIntervalSince(lastSent) >= keepAlive {
            lastSent = Date()
            return .bytes(Array(": keep-alive\n\n".utf8))
        }
        return .idle
    }

    func close() {
        condition.lock()
        closed = true
        let actions = onClose
        onClose = []
        condition.broadcast()
        condition.unlock()
        for action in actions { action() }
    }
}
