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
    package init(
        path: String, accessory: any InProcessDock, manager: DockAccessoryManager?, map: ButtonMap = ButtonMap()
    )
        throws(DockKitError)
    {
        self.path = path
        let first: FileDescriptor
        do { first = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) } catch {
            throw error == .permissionDenied ? .cameraTCCMissing : .notConnected
        }
        let stopped = self.stopped
        let problems = self.problems
        let thread = Thread { [weak accessory] in
            var device: FileDescriptor? = first
            var decoder = InputEventDecoder()
            var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
            while !stopped.withLock({ $0 }), let target = accessory {
                guard let fd = device else {
                    Thread.sleep(forTimeInterval: 1)
                    device = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
                    if device != nil { decoder = InputEventDecoder() }
                    continue
                }
                let n: Int
                do throws(Errno) {
                    guard try !fd.poll(for: .readable, timeout: 0.1).isEmpty else { continue }
                    n = try fd.read(into: &buffer)
                } catch  where error == .wouldBlock {
                    continue
                } catch {
                    // Unplugged (ENODEV): wait for it to come back.
                    problems.withLock { $0.append("\(path): \(error)") }
                    fd.close()
                    device = nil
                    continue
                }
                if n == 0 {
                    problems.withLock { $0.append("\(path) ended") }
                    // A recording of events is played once; a pipe's writer may come back.
                    if isRegularFile(fd) { break }
                    fd.close()
                    device = nil
                    continue
                }
                for event in decoder.feed(buffer[..<n]) {
                    for action in map.actions(for: event) {
                        switch action {
                        case .event(let e): target.post(e)
                        case .toggleSystemTracking:
                            let enabled = !target.isSystemTrackingEnabled
                            if let manager {
                                manager.trackingButtonPressed(enabling: enabled)
                            } else {
                                target.setSystemTrackingEnabled(enabled)
                            }
                        }
                    }
                }
            }
            device?.close()
        }
        thread.name = "opendock.buttons"
        thread.start()
    }

    /// What went wrong with the device so far (unplugged, ended), oldest first.
    package var problemsSoFar: [String] { problems.withLock { $0 } }

    package func stop() { stopped.withLock { $0 = true } }

    deinit { stop() }
}

private func isRegularFile(_ fd: FileDescriptor) -> Bool {
    var status = stat()
    return fstat(fd.rawValue, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
}
