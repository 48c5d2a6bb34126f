import DockCore
import Foundation
import Glibc

/// Reads a Linux input device (a presenter remote, the gimbal's buttons: /dev/input/eventN or
/// its stable /dev/input/by-id name) on a thread of its own and hands the accessory its
/// events; the tracking key switches system tracking through the manager. A device that goes
/// away is reopened once a second until it comes back.
package final class ButtonReader: Sendable {
    package let path: String
    private let stopped = Protected(false)
    private let problems = Protected<[String]>([])

    /// Starts reading; fails at once (with what to do) when the device cannot be opened.
    package init(path: String, accessory: DockAccessory, manager: DockAccessoryManager?, map: ButtonMap = ButtonMap()) throws(DockKitError) {
        self.path = path
        let first = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard first >= 0 else { throw errno == EACCES ? .cameraTCCMissing : .notConnected }
        let stopped = self.stopped, problems = self.problems
        let thread = Thread { [weak accessory] in
            var fd = first
            var decoder = InputEventDecoder()
            var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
            while !stopped.withLock({ $0 }), let target = accessory {
                if fd < 0 {
                    Thread.sleep(forTimeInterval: 1)
                    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                    if fd >= 0 { decoder = InputEventDecoder() }
                    continue
                }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n == 0, isRegularFile(fd) {
                    problems.withLock { $0.append("\(path) ended") }
                    break  // a recording of events: played once
                }
                if n <= 0 {
                    // Unplugged (ENODEV), or a pipe's writer gone: wait for it to come back.
                    problems.withLock { $0.append(n == 0 ? "\(path) ended" : "\(path): \(String(cString: strerror(errno)))") }
                    close(fd)
                    fd = -1
                    continue
                }
                for event in decoder.feed(buffer[..<n]) {
                    for action in map.actions(for: event) {
                        switch action {
                        case .event(let e): target.post(e)
                        case .toggleSystemTracking:
                            let enabled = !target.isSystemTrackingEnabled
                            if let manager { manager.applySystemTracking(enabled) } else { target.setSystemTrackingEnabled(enabled) }
                        }
                    }
                }
            }
            if fd >= 0 { close(fd) }
        }
        thread.name = "opendock.buttons"
        thread.start()
    }

    /// What went wrong with the device so far (unplugged, ended), oldest first.
    package var problemsSoFar: [String] { problems.withLock { $0 } }

    package func stop() { stopped.withLock { $0 = true } }

    deinit { stop() }
}

private func isRegularFile(_ fd: Int32) -> Bool {
    var status = stat()
    return fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
}
