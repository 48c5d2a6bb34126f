import Foundation

/// A file written on a thread of its own behind a short queue, so that a slow or full disk never
/// holds up the thread that makes what is written (a live frame path). An item that finds the
/// queue full is dropped and counted (the disk fell behind), unless `waitsWhenFull` (a run on
/// media time, which must keep everything); a write that fails stops the sink. Each is said
/// once, through `takeNotices`. At most `depth` items wait: the memory is fixed.
public final class FileSinkThread<Item: Sendable>: @unchecked Sendable {
    public struct Figures: Sendable, Hashable {
        public var written = 0
        /// Items dropped because the queue was full.
        public var dropped = 0
        /// Items lost when a write failed: the one that failed and those still queued.
        public var lost = 0
        /// Why the file stopped early, when it did.
        public var failure: String?
    }

    /// What the sink says, in its file's words.
    public struct Wording: Sendable {
        /// Said once, at the first item dropped.
        public var fellBehind: String
        /// Said when a write fails: given the items written and the error.
        public var stopped: @Sendable (_ written: Int, _ error: String) -> String

        public init(fellBehind: String, stopped: @escaping @Sendable (Int, String) -> String) {
            self.fellBehind = fellBehind
            self.stopped = stopped
        }
    }

    public let depth: Int
    public let waitsWhenFull: Bool
    private let wording: Wording
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [Item] = []
    private var figures = Figures()
    private var notices: [String] = []
    private var finishing = false
    private var stopped = false
    /// A write failed: nothing more is taken, though the thread is still closing the file.
    private var failed = false

    /// Starts the writing thread: `write` and then `close` run on it, and nowhere else.
    public init(
        name: String, depth: Int, waitsWhenFull: Bool = false, wording: Wording,
        write: @escaping (Item) throws -> Void, close: @escaping () -> Void
    ) {
        precondition(depth > 0)
        self.depth = depth
        self.waitsWhenFull = waitsWhenFull
        self.wording = wording
        nonisolated(unsafe) let write = write
        nonisolated(unsafe) let close = close
        let thread = Thread { [self] in drain(write: write, close: close) }
        thread.name = name
        thread.start()
    }

    /// Queues an item; waits only when `waitsWhenFull`. False when it was dropped or the sink
    /// has stopped.
    @discardableResult
    public func submit(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waitsWhenFull && queue.count >= depth && !stopped && !failed && !finishing { condition.wait() }
        guard !stopped, !failed, !finishing else { return false }
        guard queue.count < depth else {
            if figures.dropped == 0 { notices.append(wording.fellBehind) }
            figures.dropped += 1
            return false
        }
        queue.append(item)
        condition.signal()
        return true
    }

    /// Lines to say, once each: the disk fell behind, the file stopped.
    public func takeNotices() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { notices.removeAll() }
        return notices
    }

    public var current: Figures {
        condition.lock()
        defer { condition.unlock() }
        return figures
    }

    /// Writes what is queued, closes the file and returns the figures; later items are ignored.
    /// With a `timeout`, a disk that takes no write for that long is left behind: the figures
    /// come back with the items still queued counted as dropped.
    @discardableResult
    public func finish(timeout: Double? = nil) -> Figures {
        condition.lock()
        defer { condition.unlock() }
        finishing = true
        condition.broadcast()
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        while !stopped {
            if let deadline {
                guard condition.wait(until: deadline) || stopped else {
                    var left = figures
                    left.dropped += queue.count
                    return left
                }
            } else {
                condition.wait()
            }
        }
        return figures
    }

    private func drain(write: (Item) throws -> Void, close: () -> Void) {
        while let item = next() {
            do {
                try write(item)
                condition.lock()
                figures.written += 1
                condition.unlock()
            } catch {
                condition.lock()
                let line = wording.stopped(figures.written, "\(error)")
                figures.failure = line
                notices.append(line)
                figures.lost = 1 + queue.count
                queue.removeAll()
                // From the failure on, nothing is taken that would be neither written nor lost.
                failed = true
                condition.broadcast()
                condition.unlock()
                break
            }
        }
        close()
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item to write; nil once finishing and the queue is empty.
    private func next() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finishing { condition.wait() }
        guard !queue.isEmpty else { return nil }
        condition.broadcast()  // room for a submitter waiting on a full queue
        return queue.removeFirst()
    }
}
