import DockCore
import Foundation

/// Tells systemd how the service is doing (sd_notify's protocol: datagrams of `KEY=value` lines
/// to the socket named by NOTIFY_SOCKET): READY once the pipeline runs, STOPPING on the way
/// out, and WATCHDOG pings while the control loop makes progress. The pings come from
/// `progress`, never from a timer, so a loop that hangs stops them and systemd restarts it.
public final class SystemdNotifier: Sendable {
    public let socketPath: String
    /// From WATCHDOG_USEC: systemd's deadline; pings go at half of it. nil = no watchdog.
    public let watchdogInterval: Double?
    private let clock: any MonotonicClock
    private let lastPing = Protected<MonotonicInstant?>(nil)
    private let socket: FileDescriptor

    /// nil when the process was not started by systemd with Type=notify (no NOTIFY_SOCKET).
    public init?(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < 108 else { return nil }
        guard let descriptor = try? FileDescriptor.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue)) else { return nil }
        socketPath = path
        socket = descriptor
        self.clock = clock
        // The watchdog is for this process only when WATCHDOG_PID, if set, names it.
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Double(text), microseconds > 0 {
            watchdogInterval = microseconds / 1e6
        } else {
            watchdogInterval = nil
        }
    }

    deinit { socket.close() }

    /// Sends one state ("READY=1", "STOPPING=1", "STATUS=…"); false when systemd is not listening.
    @discardableResult
    public func send(_ state: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        // A leading '@' names an abstract socket: its first byte is NUL.
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                Result { () throws(Errno) in try socket.send(Array(state.utf8)[...], to: target, length: length) }
            }
        }
        return (try? sent.get()) != nil
    }

    /// The control loop went round once: pings the watchdog when half its interval has passed
    /// since the last ping.
    public func progress() {
        guard let interval = watchdogInterval else { return }
        let now = clock.now
        let due = lastPing.withLock { last -> Bool in
            guard last.map({ now.seconds(since: $0) >= interval / 2 }) ?? true else { return false }
            last = now
            return true
        }
        if due { send("WATCHDOG=1") }
    }
}
