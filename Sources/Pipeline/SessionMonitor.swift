import DockCore
import DockEngine
import Foundation
import Tracking

/// What a running session shows the control API: live figures for `/metrics` and the status,
/// and the newest frame with what was found in it for the preview. The session writes once per
/// frame; the HTTP threads read. Everything is bounded: a window of recent stage times, one frame.
public final class SessionMonitor: Sendable {
    /// The stage whose rate is the frame rate.
    public static let frameStage = Stage.frame.rawValue

    /// One stage's recent runs: when and how long (ms).
    struct StageWindow {
        static let capacity = 300
        var times: [Double] = []
        var milliseconds: [Double] = []
        var total = 0

        mutating func record(_ ms: Double, at time: Double) {
            if times.count == Self.capacity {
                times.removeFirst()
                milliseconds.removeFirst()
            }
            times.append(time)
            milliseconds.append(ms)
            total += 1
        }

        /// Runs per second over the last `span` seconds up to `now`.
        func rate(at now: Double, span: Double = 5) -> Double {
            let recent = times.filter { now - $0 <= span }
            guard let first = recent.first, recent.count > 1 else { return 0 }
            return Double(recent.count - 1) / max(now - first, 1e-3)
        }
    }

    /// The newest processed frame and what the pipeline made of it.
    public struct Snapshot: Sendable {
        public var frame: Frame
        public var detections: [PixelRect]
        public var subjects: [(id: Int, uuid: UUID, rect: NormalizedRect)]
        public var framed: [UUID]
    }

    struct Figures {
        var stages: [String: StageWindow] = [:]
        var stageOrder: [String] = []
        var frames = 0
        var accounting = FrameAccounting()
        /// The pipeline's recent `track` calls, for their rate (the count is the dock's).
        var recentTrackCalls = StageWindow()
        var detectorFailures = 0
        var rateContractErrors = 0
        var snapshot: Snapshot?
        var snapshotSequence = 0
    }
    private let figures = Protected(Figures())
    private let clock: any MonotonicClock
    let started: MonotonicInstant

    public init(clock: any MonotonicClock = SystemMonotonicClock()) {
        self.clock = clock
        started = clock.now
    }

    private var elapsed: Double { clock.now.seconds(since: started) }

    /// A frame went through the pipeline: the time each stage took, what it found.
    /// The crop digital framing shows (unit rect, lower-left origin), when it is on.
    public var crop: NormalizedRect? { shownCrop.withLock { $0 } }
    private let shownCrop = Protected<NormalizedRect?>(nil)
    func recordCrop(_ crop: NormalizedRect?) { shownCrop.withLock { $0 = crop } }

    public func recordFrame(
        _ snapshot: Snapshot, stages: [(String, Double)], accounting: FrameAccounting, detectorFailures: Int
    ) {
        let time = elapsed
        figures.withLock { f in
            for (name, ms) in stages {
                if f.stages[name] == nil { f.stageOrder.append(name) }
                f.stages[name, default: StageWindow()].record(ms, at: time)
            }
            f.frames += 1
            f.accounting = accounting
            f.detectorFailures += detectorFailures
            f.snapshot = snapshot
            f.snapshotSequence += 1
        }
    }

    public func recordRateContractError() { figures.withLock { $0.rateContractErrors += 1 } }

    /// The frame accounting moved on without a processed frame (frames skipped, lost, damaged).
    func recordAccounting(_ accounting: FrameAccounting) { figures.withLock { $0.accounting = accounting } }

    /// A `track` call was made; `latency` (ms from capture) when it carried a frame's subject
    /// for the first time: the stage "capture→command". Calls without one add no sample.
    public func recordTrackCall(latency milliseconds: Double?) {
        let time = elapsed
        figures.withLock { f in
            f.recentTrackCalls.record(0, at: time)
            guard let milliseconds else { return }
            let name = Stage.captureToCommand.rawValue
            if f.stages[name] == nil { f.stageOrder.append(name) }
            f.stages[name, default: StageWindow()].record(milliseconds, at: time)
        }
    }

    /// The newest snapshot and its number (to tell a new one from the last one sent).
    package func latestSnapshot() -> (Snapshot, Int)? {
        figures.withLock { f in f.snapshot.map { ($0, f.snapshotSequence) } }
    }

    /// One stage's figures: runs, runs per second, median and 99th percentile (ms) over the window.
    package struct StageFigures {
        package var name: String
        package var runs: Int
        package var perSecond: Double
        package var median: Double
        package var p99: Double
    }

    package struct Counters {
        package var uptime: Double
        package var frames: Int
        package var accounting: FrameAccounting
        package var trackCallsPerSecond: Double
        package var detectorFailures: Int
        package var rateContractErrors: Int
        package var stages: [StageFigures]
    }

    package func counters() -> Counters {
        let now = elapsed
        return figures.withLock { f in
            Counters(
                uptime: now, frames: f.frames, accounting: f.accounting,
                trackCallsPerSecond: f.recentTrackCalls.rate(at: now),
                detectorFailures: f.detectorFailures,
                rateContractErrors: f.rateContractErrors,
                stages: f.stageOrder.compactMap { name in
                    guard let w = f.stages[name] else { return nil }
                    let times = Percentiles(w.milliseconds)
                    return StageFigures(
                        name: name, runs: w.total, perSecond: w.rate(at: now), median: times.median ?? 0,
                        p99: times.p99 ?? 0)
                })
        }
    }
}
