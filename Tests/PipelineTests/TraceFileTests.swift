import Bench
import DockCore
import Foundation
import Pipeline
import Testing

/// The streamed trace against the whole-run writer, and its failures.
@Suite(.tags(.unit)) struct TraceFileTests {
    func rows(_ count: Int) -> [TraceRow] {
        (0..<count).map { i in
            TraceRow(
                sequence: UInt64(i), time: Double(i) / 30, yaw: 0.01 * Double(i), pitch: -0.002 * Double(i),
                commandYaw: 0.1, commandPitch: 0, selectedID: i % 3 == 0 ? nil : i % 5,
                subjects: (0..<(i % 4)).map { ($0, 0.1 * Double($0), 0.5, 0.05, 0.1) })
        }
    }

    /// Many writes' worth of rows: the file is byte for byte TraceWriter's.
    @Test func theStreamedFileIsTheWholeRunFile() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/opendock-trace-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let all = rows(3000)
        try TraceWriter.write(all, to: folder + "/whole.csv")
        let file = try TraceFile(path: folder + "/streamed.csv", waitsWhenFull: true)
        for row in all { file.append(row) }
        #expect(file.close() == nil)
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.csv"))
        let streamed = try Data(contentsOf: URL(fileURLWithPath: folder + "/streamed.csv"))
        #expect(whole.count > 100_000 && streamed == whole && file.rowsAppended == 3000 && file.rowsDropped == 0)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A full disk stops the file at its first write, with the system's reason, said once.
    @Test func aFullDiskStopsTheFileAndSaysSoOnce() throws {
        let file = try TraceFile(path: "/dev/full", waitsWhenFull: true)
        for row in rows(3000) { file.append(row) }
        let failure = try #require(file.close())
        #expect(failure.contains("trace /dev/full stopped") && failure.contains("\(Errno(ENOSPC))"))
        #expect(file.takeNotices() == [failure])
        #expect(file.rowsAppended == 3000 && file.rowsDropped == 3000)
    }

    /// A disk that takes nothing for a while (a FIFO nobody reads yet): appending never waits
    /// for it, the rows it cannot take are dropped and counted, said once, and what it took
    /// reaches the file once it reads again.
    @Test func aStalledDiskNeverHoldsUpTheRows() throws {
        let path = FileManager.default.temporaryDirectory.path + "/opendock-trace-fifo-\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // A reader must exist before the writer can open; it reads nothing for a second.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        let file = try TraceFile(path: path)
        let start = Date()
        for row in rows(3000) { file.append(row) }
        #expect(Date().timeIntervalSince(start) < 0.5, "the rows waited for the disk")
        Thread.sleep(forTimeInterval: 0.3)
        let notices = file.takeNotices()
        #expect(notices.count == 1 && notices.first?.contains("not keeping up") == true, "\(notices)")
        // Reading again: everything queued comes out, nothing more is said.
        let drained = Protected<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        let drainer = Thread {
            defer { done.signal() }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let n = read(reader, &buffer, buffer.count)
                if n > 0 { drained.withLock { $0 += buffer[0..<n] } }
                if n == 0 { break }  // the writer closed its end
                if n < 0 { Thread.sleep(forTimeInterval: 0.01) }
            }
        }
        drainer.start()
        #expect(file.close(timeout: 4) == nil)
        done.wait()
        close(reader)
        let lines = String(decoding: drained.withLock { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(file.rowsDropped > 0 && lines.count == 1 + 3000 - file.rowsDropped, "\(lines.count) lines")
        #expect(file.takeNotices().isEmpty)
    }

    @Test func aMissingFolderIsRefused() {
        #expect(throws: Errno(ENOENT)) { _ = try TraceFile(path: "/nonexistent-folder/trace.csv") }
    }
}

/// The live figures of a run of days: the share in view over the whole run, the percentiles
/// over a bounded window of the latest frames.
@Suite(.tags(.unit)) struct LoopMetricsWindowTests {
    @Test func theWindowBoundsTheSamplesNotTheShare() {
        var bounded = LoopMetrics(viewWidth: 100, viewHeight: 100, focalLength: 100, window: 40)
        var whole = LoopMetrics(viewWidth: 100, viewHeight: 100, focalLength: 100)
        for i in 0..<1000 {
            // Acquired at frame 10; the target out of view one frame in four.
            let sample = LoopSample(
                time: Double(i) / 30, targetCenterX: i % 4 == 0 ? -5 : 50 + Double(i % 7),
                targetCenterY: 50, targetSelected: i >= 10)
            bounded.record(sample)
            whole.record(sample)
            #expect(bounded.samples.count <= 40 + 40 / 4 + 1)
        }
        #expect(bounded.inViewShare == whole.inViewShare && whole.inViewShare == 743.0 / 990)
        #expect(bounded.timeToAcquire == whole.timeToAcquire && abs(whole.timeToAcquire! - 10.0 / 30) < 1e-12)
        #expect(bounded.samples.last == whole.samples.last && bounded.samples.count >= 40)
        #expect(bounded.centeringErrors().sorted.count < whole.centeringErrors().sorted.count)
    }
}
