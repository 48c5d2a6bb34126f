import Foundation

/// Blocking work (a pipe read, a child process, a polling loop) on a thread of its own.
/// Dispatch's global queues run at most one thread per core here (two), so blocking calls
/// queued on them wait for one another: a test's pipe reader could sit behind another test's
/// for seconds, and the child's exit was seen that late.
public final class BlockingWork: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    @discardableResult
    public init(_ name: String = "test.blocking", _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Returns once the work has finished.
    public func wait() { done.wait() }

    /// Returns once the work has finished (true) or `seconds` have passed (false).
    @discardableResult
    public func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}
