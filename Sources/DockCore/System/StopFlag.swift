import Foundation
import Synchronization

/// Set from a signal handler (or a test) to end a run at the next frame.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    private let signalTally = Atomic<Int>(0)
    private let signalName = Protected<String?>(nil)
    private let setTime = Protected<MonotonicInstant?>(nil)
    /// While set, a signal ends the process at once with this line on stderr (see `exitOnSignalDuringStartup`).
    private let startupExit = Protected<String?>(nil)
    /// Run once, on the thread that sets the flag (the signal thread): the motors' safe state
    /// must not wait for the frame in progress.
    private let actions = Protected<[@Sendable (MonotonicInstant) -> Void]>([])

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }
    public var signalReceived: String? { signalName.withLock { $0 } }
    /// How many SIGINTs and SIGTERMs have come (a second one cuts short what a stop still does).
    public var signalCount: Int { signalTally.load(ordering: .acquiring) }

    /// When it was first set, on the system's monotonic clock.
    public var setAt: MonotonicInstant? { setTime.withLock { $0 } }

    public func set(because name: String? = nil) {
        signalName.withLock { if $0 == nil { $0 = name } }
        setTime.withLock { if $0 == nil { $0 = SystemMonotonicClock().now } }
        flag.store(true, ordering: .releasing)
        let when = setAt ?? SystemMonotonicClock().now
        for action in actions.withLock({ a in
            defer { a.removeAll() }
            return a
        }) { action(when) }
    }

    /// Runs `action` with the time the flag was set, when it is set (at once if it already is),
    /// on the setting thread.
    public func whenSet(_ action: @escaping @Sendable (MonotonicInstant) -> Void) {
        let now = actions.withLock { a -> Bool in
            if isSet { return true }
            a.append(action)
            return false
        }
        if now { action(setAt ?? SystemMonotonicClock().now) }
    }

    /// Until `running()` is called, a signal ends the process at once (status 0) after writing
    /// `prefix` and the signal's name to stderr: loading models can take seconds, nothing has
    /// moved yet, and a person pressing Ctrl-C should not have to wait for it.
    public func exitOnSignalDuringStartup(prefix: String) { startupExit.withLock { $0 = prefix } }

    /// The run is starting: from now on a signal stops it in order (motors first).
    public func running() { startupExit.withLock { $0 = nil } }

    /// Routes SIGINT and SIGTERM to this flag. The two signals are blocked in every thread and
    /// taken by one thread of their own with sigwait, so none is lost between start-up and the
    /// handler being ready, and none runs code inside a signal handler. Call it first thing in
    /// main, before other threads exist (they inherit the mask). SIGPIPE is ignored: a trace
    /// or video written to a pipe whose reader went away fails its write and stops that sink,
    /// rather than killing the service.
    public func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watched = signals
        let thread = Thread { [self] in
            var mask = watched
            while true {
                var number: Int32 = 0
                guard sigwait(&mask, &number) == 0 else { continue }
                let name = number == SIGINT ? "SIGINT" : "SIGTERM"
                signalTally.add(1, ordering: .releasing)
                // Checked and acted on under the lock, so `running()` cannot slip in between.
                startupExit.withLock { prefix in
                    guard let prefix else { return }
                    FileHandle.standardError.write(
                        Data("\(prefix)stopped by \(name) while starting; nothing had moved\n".utf8))
                    _exit(0)  // no destructors: the main thread may be inside OpenCV loading a model
                }
                self.set(because: name)
            }
        }
        thread.name = "opendock.signals"
        thread.start()
    }
}
