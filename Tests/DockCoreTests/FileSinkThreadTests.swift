import DockCore
import Foundation
import TestSupport
import Testing

/// The bounded writer's accounting: every item submitted is written, dropped, lost at a failure,
/// or refused once the sink has stopped.
@Suite(.tags(.unit)) struct FileSinkThreadTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    static let wording = FileSinkThread<Int>.Wording(
        fellBehind: "fell behind", stopped: { written, error in "stopped after \(written): \(error)" })

    /// A write that fails stops the sink; what it held is counted as lost, not forgotten.
    @Test func aFailedWriteCountsWhatItLost() {
        let writes = Protected(0)
        let sink = FileSinkThread<Int>(
            name: "test sink", depth: 4, waitsWhenFull: true, wording: Self.wording,
            write: { _ in
                let n = writes.withLock { count -> Int in
                    count += 1
                    return count
                }
                if n == 3 { throw DiskFull() }
            }, close: {})
        let accepted = (0..<20).filter { sink.submit($0) }.count
        let figures = sink.finish()
        #expect(figures.written == 2 && figures.failure == "stopped after 2: disk full")
        #expect(figures.lost >= 1 && figures.written + figures.lost == accepted, "\(figures), \(accepted) accepted")
        #expect(sink.takeNotices() == ["stopped after 2: disk full"])
    }

    /// In real time a full queue drops the item and says so once.
    @Test func aFullQueueDropsAndSaysSoOnce() {
        let gate = DispatchSemaphore(value: 0)
        let sink = FileSinkThread<Int>(
            name: "test sink", depth: 2, wording: Self.wording, write: { _ in gate.wait() }, close: {})
        let accepted = (0..<10).filter { sink.submit($0) }.count
        for _ in 0..<10 { gate.signal() }
        let figures = sink.finish()
        #expect(figures.written == accepted && figures.dropped == 10 - accepted && figures.dropped >= 7)
        #expect(sink.takeNotices() == ["fell behind"])
    }
}
