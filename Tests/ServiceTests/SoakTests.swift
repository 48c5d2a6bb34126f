import DockCore
import Foundation
import Testing
import TestSupport
@testable import BenchRunner
@testable import ControlClient
@testable import ControlServer
@testable import Daemon
@testable import Pipeline

/// A short soak: the looped demo runs past its own end in real time, memory is sampled, and the
/// per-frame records a benchmark keeps are not kept.
@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct SoakTests {
    @Test func loopedDemoRunsInRealTimeAndReportsDrift() throws {
        var soak = try SoakCommand(arguments: ["--minutes", "0.25", "--sample-seconds", "1", "--threads", "1", "--bodies", "none",
                                               "--models", Fixtures.repositoryRoot + "/models", "--media", Fixtures.repositoryRoot + "/.cache/media"])
        soak.configuration.scene.duration = 2   // loop every 2 s: 7 loops in 15 s
        let result = try soak.run { _ in }
        // 15 s of media at 30 fps, paced to the wall clock (a few more while a slow build stops):
        // every frame the simulated camera produced is processed, skipped for a newer one, or
        // in flight at the stop.
        let accounting = result.summary.accounting
        #expect((445...470).contains(accounting.produced) && result.summary.frames == accounting.processed && accounting.processed > 0,
                "\(accounting.report)")
        #expect(accounting.produced == accounting.processed + accounting.skippedForLateness + accounting.pendingAtStop, "\(accounting.report)")
        // The real-time rig: commands carry results within a frame period or so of their capture.
        #expect(try #require(result.summary.timings.percentiles("capture→command").median) < 100)
        #expect(result.summary.wallSeconds >= 14.5, "a real-time run cannot finish early")
        #expect(result.summary.trace.isEmpty && result.summary.frameSamples.isEmpty)
        #expect(result.memory.count >= 3 && result.driftBytes != nil)
        #expect(result.summary.rateContractErrors == 0 && result.summary.finalCommand == .init())
        let report = SoakCommand.report(result, json: false)
        #expect(report.contains("rss drift mib") && report.contains("lag p99 frames"))
        let json = try JSONSerialization.jsonObject(with: Data(SoakCommand.report(result, json: true).utf8)) as? [String: Any]
        #expect(json?["frames"] as? Double == Double(result.summary.frames))
    }

    @Test func driftAndSlopeOfKnownSamples() {
        // 1 MiB every minute after a one-minute warm-up: drift 3 MiB over three minutes, slope 10 MiB per 10 minutes.
        let mib = 1_048_576.0
        let memory = (0...4).map { (Double($0) * 60, 50 * mib + Double(max(0, $0 - 1)) * mib) }
        let result = SoakCommand.Result(summary: SessionSummary(), memory: memory, lagFrames: [], warmUp: 60)
        #expect(result.driftBytes == 3 * mib)
        #expect(abs(result.slopeBytesPerTenMinutes! - 10 * mib) < 1)
    }

    @Test func theCheckPassesAFlatRunAndNamesEachFailure() {
        let mib = 1_048_576.0
        var summary = SessionSummary()
        summary.frames = 5000
        let flat: [(time: Double, bytes: Double)] = (0...4).map { i in
            let wobble: Double = i % 2 == 0 ? 0 : 0.1 * mib
            return (Double(i) * 60, 100 * mib + wobble)
        }
        #expect(SoakCommand.failures(SoakCommand.Result(summary: summary, memory: flat, lagFrames: [], warmUp: 60)).isEmpty)
        let growing: [(time: Double, bytes: Double)] = (0...4).map { i in (Double(i) * 60, 100 * mib + Double(i) * mib) }
        summary.rateContractErrors = 2
        summary.deadmanStops = 1
        summary.accounting.delivered = 5030
        summary.accounting.processed = 5000
        summary.accounting.replacedByNewer = 30
        let failures = SoakCommand.failures(SoakCommand.Result(summary: summary, memory: growing, lagFrames: [], warmUp: 60))
        #expect(failures.count == 4)
        #expect(failures.first == "RSS drifted 3.00 MiB after warm-up (limit 1 MiB)")
        #expect(failures.last == "30 of 5030 frames dropped for lateness (limit 0.5 %)")
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
