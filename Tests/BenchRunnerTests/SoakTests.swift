import DockCore
import Foundation
import Imaging
import PeerBench
import TestSupport
import Testing

@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Options
@testable import Pipeline
@testable import Soak

/// A short soak: the looped demo runs past its own end in real time, memory is sampled, and the
/// per-frame records a benchmark keeps are not kept.
@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct SoakTests {
    @Test func loopedDemoRunsInRealTimeAndReportsDrift() throws {
        var soak = try SoakCommand(arguments: [
            "--minutes", "0.25", "--sample-seconds", "1", "--threads", "1", "--bodies", "none",
            "--models", Fixtures.repositoryRoot + "/models", "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        soak.configuration.scene.duration = 2  // loop every 2 s: 7 loops in 15 s
        let result = try soak.run { _ in }
        // 15 s of media at 30 fps, paced to the wall clock (a few more while a slow build stops):
        // every frame the simulated camera produced is processed, skipped for a newer one, or
        // in flight at the stop.
        let accounting = result.summary.accounting
        #expect(
            (445...470).contains(accounting.produced) && result.summary.frames == accounting.processed
                && accounting.processed > 0,
            "\(accounting.report)")
        #expect(
            accounting.produced == accounting.processed + accounting.skippedForLateness + accounting.pendingAtStop,
            "\(accounting.report)")
        // The real-time rig: commands carry results within a frame period or so of their capture.
        #expect(try #require(result.summary.timings.percentiles("capture→command").median) < 100)
        #expect(result.summary.wallSeconds >= 14.5, "a real-time run cannot finish early")
        #expect(result.summary.trace.isEmpty && result.summary.subjectsByFrame.isEmpty)
        #expect(result.memory.count >= 3 && result.driftBytes != nil)
        #expect(result.memory.last?.heap.isNaN == true, "the heap is not sampled after the run")
        // glibc's heap figures exist unless a sanitizer's allocator replaced glibc's.
        if Imaging.heapBytesInUse() != nil {
            #expect(result.heapDriftBytes != nil)
            #expect(result.memory.dropLast().allSatisfy { $0.heap < $0.bytes })
        }
        #expect(result.summary.rateContractErrors == 0 && result.summary.finalCommand == .init())
        let report = SoakCommand.report(result, json: false)
        #expect(report.contains("rss drift mib") && report.contains("lag p99 frames"))
        let json =
            try JSONSerialization.jsonObject(with: Data(SoakCommand.report(result, json: true).utf8)) as? [String: Any]
        #expect(json?["frames"] as? Double == Double(result.summary.frames))
        // The benchmark's peer report reads its live latency from this JSON.
        let live = try PeerComparison.liveLatency(fromSoakJSON: Data(SoakCommand.report(result, json: true).utf8))
        let command = result.summary.timings.percentiles("capture→command")
        #expect(abs(live.p50 - command.median!) < 0.01 && abs(live.p99 - command.p99!) < 0.01)
    }

    @Test func everyOutputOnServesEachClientAndBoundsTheOneThatStoppedReading() throws {
        let folder = Fixtures.temporaryDirectory("soak-outputs")
        var soak = try SoakCommand(arguments: [
            "--minutes", "0.25", "--sample-seconds", "1", "--threads", "1", "--bodies", "none", "--outputs", folder,
            "--models", Fixtures.repositoryRoot + "/models", "--media", Fixtures.repositoryRoot + "/.cache/media",
        ])
        soak.configuration.scene.duration = 2
        let result = try soak.run { _ in }
        // Descriptors and threads are the whole process's: here other suites run beside this one,
        // so only the clients' and video out's failures are judged (`pilingDescriptors…` checks the rest).
        let failures = SoakCommand.outputFailures(result).filter { !$0.contains(" rose from ") }
        #expect(failures.isEmpty, "\(failures)")
        let clients = try #require(result.clients)
        // 15 s: the preview at up to 10 a second, the clean frames at 15, tracking states at 10
        // (a third of the 30 frames a second; every frame when a slow build processes fewer than 10).
        #expect(clients.previewParts >= 30 && clients.previewParts <= 160)
        #expect(clients.frameParts >= 45 && clients.frameParts <= 235)
        let frames = result.summary.frames
        let paced = min(frames, 150)
        #expect(
            clients.trackingEvents >= paced * 6 / 10 && clients.trackingEvents <= min(frames, 180),
            "\(clients.trackingEvents) states for \(frames) frames")
        #expect(clients.metricsScrapes >= 10)
        // Video out keeps the newest frame (a slow build writes fewer): each frame was written
        // or replaced, none failed. The client that stopped reading held no more than its queue
        // and its socket, whatever it missed is counted, and said at most once.
        let (written, replaced, failed) = try #require(result.summary.videoOutFrames)
        #expect(written == result.videoOutWrites && written > 0 && failed == 0)
        #expect(written + replaced >= result.summary.frames)
        #expect(clients.notices.count <= 1 && (clients.notices.isEmpty == (clients.eventsDroppedInMetrics == 0)))
        #expect(FileManager.default.fileExists(atPath: folder + "/annotated.avi"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/control.sock"), "the server's socket is removed")
    }

    @Test func pilingDescriptorsThreadsAndSilentClientsFail() {
        var result = SoakCommand.Result(summary: SessionSummary(), memory: [], lagFrames: [], warmUp: 10)
        result.handles = [(5, 10, 10), (10, 19, 20), (60, 22, 22), (120, 30, 23)]
        result.clients = .init(previewParts: 100, frameParts: 0, trackingEvents: 5, motionEvents: 5, metricsScrapes: 3)
        result.videoOutWrites = 0
        #expect(
            SoakCommand.outputFailures(result) == [
                "the clean frames client received nothing", "video out wrote no frame",
                "open descriptors rose from 19 to 30 after warm-up", "threads rose from 20 to 23 after warm-up",
            ])
        result.handles = [(10, 19, 20), (120, 21, 22)]
        result.clients?.frameParts = 1
        result.videoOutWrites = 5
        #expect(SoakCommand.outputFailures(result).isEmpty)
    }

    @Test func driftAndSlopeOfKnownSamples() throws {
        // 1 MiB every minute after a one-minute warm-up: 3 MiB over three minutes from end to end, slope 10 MiB per 10 minutes.
        let mib = 1_048_576.0
        let memory: [(time: Double, bytes: Double, heap: Double)] = (0...4).map { (i: Int) in
            (Double(i) * 60, 50 * mib + Double(max(0, i - 1)) * mib, 20 * mib)
        }
        let result = SoakCommand.Result(summary: SessionSummary(), memory: memory, lagFrames: [], warmUp: 60)
        #expect(result.endToEndBytes == 3 * mib)
        #expect(abs(result.slopeBytesPerTenMinutes! - 10 * mib) < 1)
        #expect(result.driftBytes == nil, "six samples after warm-up are needed for the resident size's level")
        #expect(result.heapDriftBytes == nil, "six samples after warm-up are needed for the heap's level")
        // The levels: frames in flight at a sample (+2 MiB of heap, +5 MiB resident) do not
        // count, though the last sample caught some; a rising level does.
        let spiky: [(time: Double, bytes: Double, heap: Double)] = (0...12).map { (i: Int) in
            let inFlight: Double = i % 3 == 0 ? 1 : 0
            let leaked: Double = i >= 10 ? 0.5 * mib : 0
            return (Double(i) * 15, 60 * mib + inFlight * 5 * mib, 20 * mib + inFlight * 2 * mib + leaked)
        }
        let level = SoakCommand.Result(summary: SessionSummary(), memory: spiky, lagFrames: [], warmUp: 60)
        #expect(level.heapDriftBytes == 0.5 * mib)
        #expect(level.endToEndBytes == 5 * mib && level.driftBytes == 0)
        // A frame fewer in flight at one early sample (a dip, as a loaded CI machine caught: the
        // heap at 91.0 MiB, one sample at 88.3) is no leak either.
        let dipped: [(time: Double, bytes: Double, heap: Double)] = (0...30).map { (i: Int) in
            (Double(i) * 6, 200 * mib, (i == 14 ? 88.3 : 91.0) * mib)
        }
        let dip = SoakCommand.Result(summary: SessionSummary(), memory: dipped, lagFrames: [], warmUp: 60)
        #expect(dip.heapDriftBytes == 0)
        // The sample after the run (heap NaN: the pipeline's buffers are gone) does not count.
        let ended = SoakCommand.Result(
            summary: SessionSummary(), memory: spiky + [(181, 50 * mib, .nan)], lagFrames: [], warmUp: 60)
        #expect(ended.heapDriftBytes == 0.5 * mib)
        // Without heap figures (a sanitizer's allocator) the JSON report still parses, nulls for them.
        let blind = SoakCommand.Result(
            summary: SessionSummary(), memory: spiky.map { ($0.time, $0.bytes, .nan) }, lagFrames: [], warmUp: 60)
        #expect(blind.heapDriftBytes == nil)
        let object = try JSONSerialization.jsonObject(with: Data(SoakCommand.report(blind, json: true).utf8))
        #expect((object as? [String: Any])?["heap_drift_mib"] is NSNull)
    }

    @Test func theCheckPassesAFlatRunAndNamesEachFailure() {
        let mib = 1_048_576.0
        var summary = SessionSummary()
        summary.frames = 5000
        // A flat heap with frames in flight now and then, and the resident size stepping 3 MiB
        // once (glibc's arenas do): a pass.
        let flat: [(time: Double, bytes: Double, heap: Double)] = (0...12).map { (i: Int) in
            let wobble: Double = i % 2 == 0 ? 0 : 0.7 * mib
            let step: Double = i > 6 ? 3 * mib : 0
            return (Double(i) * 15, 100 * mib + step, 40 * mib + wobble)
        }
        #expect(
            SoakCommand.failures(SoakCommand.Result(summary: summary, memory: flat, lagFrames: [], warmUp: 60)).isEmpty)
        // A loaded machine's hiccups (68 of 5,402 frames late, 1.3 %, seen on CI) are not a stall.
        var busy = summary
        busy.accounting.delivered = 5402
        busy.accounting.processed = 5334
        busy.accounting.replacedByNewer = 68
        #expect(
            SoakCommand.failures(SoakCommand.Result(summary: busy, memory: flat, lagFrames: [], warmUp: 60)).isEmpty)
        let growing: [(time: Double, bytes: Double, heap: Double)] = (0...12).map { (i: Int) in
            let n = Double(i)
            return (n * 15, 100 * mib + n * 1.5 * mib, 40 * mib + n * 0.5 * mib)
        }
        summary.rateContractErrors = 2
        summary.deadmanStops = 1
        summary.accounting.delivered = 5030
        summary.accounting.processed = 4700
        summary.accounting.replacedByNewer = 330
        let failures = SoakCommand.failures(
            SoakCommand.Result(summary: summary, memory: growing, lagFrames: [], warmUp: 60))
        #expect(failures.count == 5)
        #expect(failures.first == "the heap in use grew 3.00 MiB after warm-up (limit 1 MiB)")
        #expect(failures.contains("the resident size's level rose 9.00 MiB after warm-up (limit 8 MiB)"))
        #expect(failures.last == "330 of 5030 frames dropped for lateness (limit 5 %)")
    }
}

@Suite(.tags(.unit)) struct StopFlagTests {
    @Test func actionsRunOnceWhenSetOrAtOnceIfAlreadySet() {
        let flag = StopFlag()
        let runs = Protected(0)
        flag.whenSet { _ in runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 0)
        flag.set(because: "SIGTERM")
        flag.set(because: "SIGINT")
        #expect(runs.withLock { $0 } == 1 && flag.signalReceived == "SIGTERM")
        flag.whenSet { _ in runs.withLock { $0 += 10 } }
        #expect(runs.withLock { $0 } == 11)
    }
}
