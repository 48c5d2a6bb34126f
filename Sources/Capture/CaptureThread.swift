import DockCore
import Foundation
import Synchronization

/// Runs a blocking `FrameSource` on a thread of its own (never Swift's cooperative pool) and
/// posts every frame to a newest-only mailbox. The source is created on that thread, so
/// non-thread-safe sources stay confined to it.
public final class CaptureThread: Sendable {
    public let mailbox = FrameMailbox()
    private final class Flags: Sendable {
        let stop = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        let counts = Protected(SourceCounts())
    }
    private let flags = Flags()

    /// What the source did not deliver, as of its last frame; readable from any thread.
    public var sourceCounts: SourceCounts { flags.counts.withLock { $0 } }

    /// Starts the thread. `makeSource` runs on it; an error there closes the mailbox with it.
    /// `onFrame` sees each frame as it arrives, before the mailbox (a sink that must not miss
    /// frames the perception skips); it must not wait.
    public init(
        name: String = "opendock.capture",
        makeSource: @escaping @Sendable () throws(FrameSourceError) -> any FrameSource,
        onFrame: (@Sendable (Frame) -> Void)? = nil
    ) {
        let mailbox = self.mailbox
        let flags = self.flags
        let thread = Thread {
            defer { flags.finished.store(true, ordering: .releasing) }
            do {
                let source = try makeSource()
                defer { flags.counts.withLock { $0 = source.counts } }
                while !flags.stop.load(ordering: .acquiring) {
                    guard let frame = try source.nextFrame() else { break }
                    let counts = source.counts
                    flags.counts.withLock { $0 = counts }
                    onFrame?(frame)
                    mailbox.post(frame)
                }
                mailbox.close()
            } catch let error as FrameSourceError {
                mailbox.close(reason: error)
            } catch {
                mailbox.close(reason: FrameSourceError("\(error)"))
            }
        }
        thread.name = name
        thread.start()
    }

    /// Asks the thread to stop after the frame in progress.
    public func stop() { flags.stop.store(true, ordering: .releasing) }

    public var isFinished: Bool { flags.finished.load(ordering: .acquiring) }

    deinit { stop() }
}
