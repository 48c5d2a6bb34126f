import DockCore
import Foundation

/// Hands frames from a producer thread to a consumer, keeping only the newest: a frame that is
/// not taken before the next one arrives is replaced and counted. Never grows.
public final class FrameMailbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var frame: Frame?
    private var closedReason: FrameSourceError?
    private var isClosed = false
    private var replacedCount = 0
    private var postedCount = 0

    /// Frames replaced before they were taken, and frames posted in all.
    public var replaced: Int {
        condition.lock()
        defer { condition.unlock() }
        return replacedCount
    }
    public var posted: Int {
        condition.lock()
        defer { condition.unlock() }
        return postedCount
    }

    public init() {}

    /// Leaves `frame` for the consumer, replacing one not yet taken.
    public func post(_ newFrame: Frame) {
        condition.lock()
        if frame != nil { replacedCount += 1 }
        frame = newFrame
        postedCount += 1
        condition.signal()
        condition.unlock()
    }

    /// Ends the stream; `take` returns what is left, then nil (or throws `reason`).
    public func close(reason: FrameSourceError? = nil) {
        condition.lock()
        isClosed = true
        closedReason = reason
        condition.broadcast()
        condition.unlock()
    }

    /// The newest frame, waiting up to `timeout` seconds. nil on timeout or after close.
    public func take(timeout: Double) throws(FrameSourceError) -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while frame == nil && !isClosed {
            if !condition.wait(until: deadline) { break }
        }
        if let taken = frame {
            frame = nil
            return taken
        }
        if isClosed, let closedReason { throw closedReason }
        return nil
    }

    public var closed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isClosed
    }
}
