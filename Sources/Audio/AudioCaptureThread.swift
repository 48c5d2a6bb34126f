import DockCore
import Foundation
import Synchronization

/// Runs a blocking `AudioSource` on a thread of its own and queues its blocks, in order, for
/// whoever drains them. Unlike frames, sound is never skipped while it fits: a reader that
/// falls behind by more than `capacitySeconds` loses the oldest blocks, which are counted.
public final class AudioCaptureThread: Sendable {
    private struct Queue {
        var blocks: [AudioBlock] = []
        var seconds = 0.0
        var dropped = 0
        var received = 0
        var closedReason: AudioError?
        var closed = false
    }
    private let queue = Protected(Queue())
    private final class Flags: Sendable {
        let stop = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
    }
    private let flags = Flags()
    public let capacitySeconds: Double

    /// Starts the thread. `makeSource` runs on it, so the source stays confined to that thread.
    public init(
        name: String = "opendock.audio", capacitySeconds: Double = 2,
        makeSource: @escaping @Sendable () throws(AudioError) -> any AudioSource
    ) {
        self.capacitySeconds = capacitySeconds
        let thread = Thread { [queue, flags] in
            defer { flags.finished.store(true, ordering: .releasing) }
            var reason: AudioError?
            do throws(AudioError) {
                let source = try makeSource()
                while !flags.stop.load(ordering: .acquiring) {
                    guard let block = try source.nextBlock() else { break }
                    queue.withLock { q in
                        q.blocks.append(block)
                        q.seconds += block.duration
                        q.received += 1
                        while q.seconds > capacitySeconds, q.blocks.count > 1 {
                            q.seconds -= q.blocks.removeFirst().duration
                            q.dropped += 1
                            // What follows no longer continues what the reader saw last.
                            q.blocks[0].followsGap = true
                        }
                    }
                }
            } catch {
                reason = error
            }
            queue.withLock {
                $0.closed = true
                $0.closedReason = reason
            }
        }
        thread.name = name
        thread.start()
    }

    /// Every block queued since the last call, oldest first.
    public func drain() -> [AudioBlock] {
        queue.withLock { q in
            defer {
                q.blocks.removeAll(keepingCapacity: true)
                q.seconds = 0
            }
            return q.blocks
        }
    }

    /// Blocks the reader was too slow for, and blocks captured in all.
    public var dropped: Int { queue.withLock { $0.dropped } }
    public var received: Int { queue.withLock { $0.received } }

    /// Whether the source has ended, and why when it failed.
    public var ended: (closed: Bool, reason: AudioError?) { queue.withLock { ($0.closed, $0.closedReason) } }

    /// Asks the thread to stop after the block in progress (a read returns within a period).
    public func stop() { flags.stop.store(true, ordering: .releasing) }

    public var isFinished: Bool { flags.finished.load(ordering: .acquiring) }

    deinit { stop() }
}
