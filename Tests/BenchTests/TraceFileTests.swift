import Bench
import DockCore
import Foundation
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
        let file = try TraceFile(path: folder + "/streamed.csv")
        for row in all { try file.append(row) }
        try file.close()
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.csv"))
        let streamed = try Data(contentsOf: URL(fileURLWithPath: folder + "/streamed.csv"))
        #expect(whole.count > 100_000 && streamed == whole && file.rowsWritten == 3000)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A full disk fails the first write, a second's rows in, with the system's reason.
    @Test func aFullDiskFailsTheFirstWrite() throws {
        let file = try TraceFile(path: "/dev/full")
        #expect(throws: Errno(ENOSPC)) {
            for row in rows(3000) { try file.append(row) }
        }
        #expect(file.rowsWritten == 30)
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
