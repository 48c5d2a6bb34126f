import DockCore
import Foundation
import Tracking

/// What a run did and how well, printed at the end and used by the benchmark.
public struct SessionSummary: Sendable {
    public var frames = 0
    public var wallSeconds = 0.0
    public var mediaSeconds = 0.0
    public var timings = StageTimings()
    /// Every frame the source produced and what became of it.
    public var accounting = FrameAccounting()
    /// Frames thrown away as bad data (damaged or flagged by the driver).
    public var droppedFrames: Int { accounting.damagedOrFlagged }
    /// Frames skipped because the pipeline or the camera fell behind (a newer one replaced them).
    public var lateFrames: Int { accounting.skippedForLateness }
    public var detectorFailures = 0
    /// Frames on which the body detector was asked to run.
    public var bodyRuns = 0
    /// Trace rows dropped because the disk fell behind (or lost when the trace stopped).
    public var traceRowsDropped = 0
    public var detectorName = ""
    /// `track` calls the dock took (past the rate contract), the pipeline's and any client's:
    /// the one count `/metrics` and the status show too.
    public var trackCalls = 0
    public var rateContractErrors = 0
    public var deadmanStops = 0
    /// The line said when the head turned the camera away from the person and the tracking stopped.
    public var runawayStop: String?
    /// Whether the microphone pair turned out wired as configured (lips against the sound's side).
    public var channelOrder: ChannelOrderCheck?
    /// The camera's optical zoom: how the engine drove it, and where it was left.
    public struct ZoomReport: Sendable {
        public var mode: ZoomChoice
        public var moves: Int
        public var failures: Int
        public var lastFailure: String?
        public var finalFactor: Double
    }
    public var zoom: ZoomReport?
    /// Times the motor device stopped answering mid-run (and the motors were stopped for it).
    public var silentMotorStops = 0
    public var finalCommand = Vector3D()
    /// The motor device's command latency: its own figure, and as measured from its starts.
    public var commandLatency: (declared: Double, measured: Double?, starts: Int)?
    public var outputVideo: String?
    /// The most of it kept on disk (`--output-keep`), bytes.
    public var outputVideoKeepBytes: Int64?
    /// Why the annotated video stopped early (a full disk), when it did; its frames written and
    /// dropped because the disk fell behind.
    public var outputVideoError: String?
    public var outputVideoFrames: (written: Int, dropped: Int)?
    /// The virtual camera: frames written, replaced by a newer one before writing, failed.
    public var videoOutFrames: (written: Int, replaced: Int, failed: Int)?
    /// Placeholder pictures written to the virtual camera while no frame came (an unplugged camera).
    public var videoOutPlaceholders = 0
    public var stoppedBySignal = false
    /// From the stop request (a signal) to the motors' stop command, seconds.
    public var motorStopDelay: Double?
    /// The trace file, and why it stopped early (a full disk), when it did.
    public var tracePath: String?
    public var traceError: String?
    /// One row per frame, when kept in memory; see `TraceRow`.
    public var trace: [TraceRow] = []
    /// Beside each trace row kept in memory: the frame's subjects by person (see `SubjectRecord`).
    public var subjectsByFrame: [[SubjectRecord]] = []
    /// What those who measured the run (its observers: the benchmark's ground truth) report.
    public var measurementLines: [String] = []

    /// Live microphones: blocks captured, blocks lost because the detection thread fell more
    /// than the queue's length behind, and times the sound did not continue (overruns, clock jumps).
    public var audioBlocks: Int?
    public var audioBlocksDropped = 0
    public var audioRestarts = 0
    /// Frames in which someone tracked was heard speaking (speakingConfidence over the policy's threshold).
    public var framesWithSpeaker = 0

    /// CPU time the whole process used during the run (user + system, every thread).
    public var cpuSeconds: Double?

    public var framesPerSecond: Double { wallSeconds > 0 ? Double(frames) / wallSeconds : 0 }

    /// The process's CPU time so far, in seconds.
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// What the run found wrong with how the rig is built or wired: a head that ran away, a
    /// microphone pair wired the other way round.
    var setupProblems: [String] {
        var lines: [String] = []
        if let runawayStop { lines.append(runawayStop) }
        if let channelOrder, channelOrder.verdict == .swapped {
            lines.append(
                "microphones: wired the other way round (the sound came from the side opposite the lips that moved, \(channelOrder.opposing) of \(channelOrder.agreeing + channelOrder.opposing) windows)"
            )
        }
        return lines
    }

    public func report() -> String {
        var lines: [String] = []
        lines.append(
            String(
                format: "frames %d in %.1f s (%.1f fps), media time %.1f s, detector %@",
                frames, wallSeconds, framesPerSecond, mediaSeconds, detectorName as NSString))
        if let cpuSeconds, wallSeconds > 0 {
            lines.append(
                String(
                    format: "CPU: %.0f %% of one core (%.2f s over %.1f s); peak resident memory %.0f MiB",
                    100 * cpuSeconds / wallSeconds,
                    cpuSeconds, wallSeconds, ProcessResources.peakResidentBytes() / 1_048_576))
        }
        lines += measurementLines
        lines.append(accounting.report)
        lines.append(
            "track calls \(trackCalls), rate-contract errors \(rateContractErrors), deadman stops \(deadmanStops), "
                + (silentMotorStops > 0 ? "motor device silent \(silentMotorStops) times, " : "")
                + "detector failures \(detectorFailures)")
        if let audioBlocks {
            lines.append(
                String(
                    format:
                        "audio: %d blocks, %d lost behind the reader, %d restarts; someone tracked heard speaking in %d of %d frames",
                    audioBlocks, audioBlocksDropped, audioRestarts, framesWithSpeaker, frames))
        }
        lines += setupProblems
        if let zoom {
            lines.append(
                zoom.mode == .off
                    ? String(format: "zoom: off, left at %.2f×", zoom.finalFactor)
                    : String(format: "zoom: %d changes, %.2f× at the end", zoom.moves, zoom.finalFactor)
                        + (zoom.failures > 0 ? ", \(zoom.failures) commands failed (\(zoom.lastFailure ?? ""))" : ""))
        }
        lines.append("motors at exit: \(finalCommand == Vector3D() ? "stopped" : "MOVING \(finalCommand)")")
        if let (declared, measured, starts) = commandLatency, let measured {
            lines.append(
                String(
                    format: "motor command latency: measured %.0f ms from %d starts (the device's own figure: %.0f ms)",
                    measured * 1000, starts, declared * 1000))
        }
        if let (written, replaced, failed) = videoOutFrames {
            let latency = timings.percentiles(.captureToOutput)
            lines.append(
                "video out: \(written) frames written, \(replaced) replaced by a newer one, \(failed) failed"
                    + (videoOutPlaceholders > 0
                        ? ", \(videoOutPlaceholders) placeholder pictures while no frame came" : "")
                    + String(
                        format: "; capture→output p50 %.1f ms, p99 %.1f ms", latency.median ?? .nan, latency.p99 ?? .nan
                    ))
        }
        if let outputVideoError {
            lines.append(outputVideoError)
        } else if let outputVideo {
            let dropped = outputVideoFrames.map {
                $0.dropped > 0 ? " (\($0.dropped) frames dropped: the disk fell behind)" : ""
            }
            let kept = outputVideoKeepBytes.map { " and its numbered parts, the newest \($0 >> 20) MiB kept" } ?? ""
            lines.append("annotated video: \(outputVideo)" + kept + (dropped ?? ""))
        }
        if let traceError {
            lines.append(traceError)
        } else if let tracePath {
            let dropped = traceRowsDropped > 0 ? " (\(traceRowsDropped) rows dropped: the disk fell behind)" : ""
            lines.append("trace: \(tracePath)" + dropped)
        }
        return lines.joined(separator: "\n")
    }
}

/// A subject as one frame showed it: the run's number for the person (the same for their face
/// and body tracks, and across a track lost and found again), its kind and unit rect
/// (lower-left origin), and its speakingConfidence when speakers are followed.
public struct SubjectRecord: Sendable, Hashable {
    public var person: Int
    public var kind: ObservationKind
    public var rect: NormalizedRect
    public var speaking: Double?
}
