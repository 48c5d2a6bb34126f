import DockCore
import Dispatch
import Foundation
import Synchronization

/// Set from a signal handler (or a test) to end a run at the next frame.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    private let signalName = Protected<String?>(nil)
    private let setTime = Protected<MonotonicInstant?>(nil)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }
    public var signalReceived: String? { signalName.withLock { $0 } }

    /// When it was first set, on the system's monotonic clock.
    public var setAt: MonotonicInstant? { setTime.withLock { $0 } }

    public func set(because name: String? = nil) {
        signalName.withLock { if $0 == nil { $0 = name } }
        setTime.withLock { if $0 == nil { $0 = SystemMonotonicClock().now } }
        flag.store(true, ordering: .releasing)
    }

    /// Routes SIGINT and SIGTERM to this flag; the sources must stay alive for the run.
    public func installSignalHandlers() -> [DispatchSourceSignal] {
        [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in set(because: name) }
            source.resume()
            return source
        }
    }
}
