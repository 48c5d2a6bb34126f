import DockCore
import Foundation
import Imaging
import Testing

/// The video file's own thread: a slow disk costs frames, counted and said once, never the
/// frame path's time; a failing one stops the file and nothing else.
@Suite(.tags(.unit)) struct VideoFileSinkTests {
    /// A file that takes `delay` per frame, or holds each write until the test lets it go
    /// (`held`), and fails from frame `failingFrom` on.
    final class ScriptedFile: VideoFileWriting, @unchecked Sendable {
        let delay: Double
        let failingFrom: Int
        let gate: DispatchSemaphore?
        private let count = Protected(0)
        private let entered = Protected(0)
        private let closedFlag = Protected(false)
        init(delay: Double = 0, failingFrom: Int = .max, held: Bool = false) {
            self.delay = delay
            self.failingFrom = failingFrom
            gate = held ? DispatchSemaphore(value: 0) : nil
        }
        var frames: Int { count.withLock { $0 } }
        /// Writes begun, finished or not.
        var begun: Int { entered.withLock { $0 } }
        var closed: Bool { closedFlag.withLock { $0 } }
        func write(_ frame: Frame) throws(ImagingError) {
            entered.withLock { $0 += 1 }
            gate?.wait()
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            let n = count.withLock { n in
                n += 1
                return n
            }
            if n >= failingFrom { throw ImagingError(operation: "write", message: "No space left on device") }
        }
        func close() { closedFlag.withLock { $0 = true } }
    }

    func frame(_ i: Int) -> Frame {
        Frame(
            stamp: FrameStamp(sequence: UInt64(i), time: MonotonicInstant(nanoseconds: 0)), width: 8, height: 8,
            format: .bgr)
    }

    /// A disk stuck on one frame: the next three wait in the queue and the other 36 are dropped,
    /// all while the write is held (submitting never waits for the disk).
    @Test func aSlowDiskDropsFramesCountedAndSaidOnce() {
        let file = ScriptedFile(held: true)
        let sink = VideoFileSink(path: "slow.avi", size: PixelSize(width: 8, height: 8), writer: file, depth: 3)
        sink.submit(frame(0))
        while file.begun < 1 { Thread.sleep(forTimeInterval: 0.001) }
        for i in 1..<40 { sink.submit(frame(i)) }
        #expect(file.frames == 0 && sink.current.dropped == 36)
        let notices = sink.takeNotices()
        #expect(notices.count == 1 && notices[0].contains("the disk is not keeping up"), "\(notices)")
        for _ in 0..<4 { file.gate!.signal() }
        let figures = sink.finish()
        #expect(figures.written == 4 && figures.dropped == 36 && figures.failure == nil)
        #expect(file.frames == 4 && file.closed && sink.takeNotices().isEmpty)
    }

    /// On media time (a recording run as fast as it goes) the video keeps every frame.
    @Test func onMediaTimeTheSinkWaitsForTheDisk() {
        let file = ScriptedFile(delay: 0.005)
        let sink = VideoFileSink(
            path: "slow.avi", size: PixelSize(width: 8, height: 8), writer: file, depth: 3, waitsWhenFull: true)
        for i in 0..<40 { sink.submit(frame(i)) }
        let figures = sink.finish()
        #expect(figures.written == 40 && figures.dropped == 0 && file.frames == 40 && sink.takeNotices().isEmpty)
    }

    @Test func aHealthyDiskWritesEveryFrame() {
        let file = ScriptedFile()
        let sink = VideoFileSink(path: "fine.avi", size: PixelSize(width: 8, height: 8), writer: file, depth: 3)
        for i in 0..<200 {
            sink.submit(frame(i))
            while sink.current.written < i + 1 { Thread.sleep(forTimeInterval: 0.0005) }
        }
        let figures = sink.finish()
        #expect(figures.written == 200 && figures.dropped == 0 && figures.failure == nil && file.closed)
    }

    @Test func aFailedWriteStopsTheFileOnce() {
        let file = ScriptedFile(failingFrom: 3)
        let sink = VideoFileSink(path: "full.avi", size: PixelSize(width: 8, height: 8), writer: file, depth: 3)
        for i in 0..<3 {
            sink.submit(frame(i))
            while sink.current.written < min(i + 1, 2) { Thread.sleep(forTimeInterval: 0.0005) }
        }
        while sink.current.failure == nil { Thread.sleep(forTimeInterval: 0.0005) }
        for i in 3..<10 { sink.submit(frame(i)) }
        let figures = sink.finish()
        #expect(figures.written == 2 && file.frames == 3 && file.closed)
        #expect(figures.failure == "video full.avi stopped after 2 frames: No space left on device")
        #expect(sink.takeNotices() == [figures.failure!])
    }
}
