import Foundation

/// Checks `condition` every 5 ms for up to `seconds`; true as soon as it holds. For handshakes
/// with devices that answer asynchronously through a reader thread.
public func waitFor(seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}
