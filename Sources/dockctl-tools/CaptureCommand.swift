import Bench
import Capture
import DockCore
import Foundation
import Pipeline

/// `dockctl capture`: streams N frames from a camera and checks what a driver must get right —
/// sizes, strictly increasing sequence numbers and timestamps — and reports rates, drops and the
/// capture-to-frame-ready latency. Exit status 1 when a check fails.
public struct CaptureCommand {
    public var device = "/dev/video0"
    public var frames = 100
    public var request = CaptureRequest()
    public var json = false

    public static let help = """
        dockctl capture — stream frames from a camera and check sizes, sequence numbers and timestamps.

        Usage: dockctl capture [--device PATH] [--frames N] [--size WxH] [--fps N] [--scale 1|2|4|8]
                               [--gray] [--json]
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--device": device = try value(argument)
            case "--frames":
                let text = try value(argument)
                guard let n = Int(text), n > 0 else {
                    throw UsageError("--frames expects a positive whole number, got '\(text)'")
                }
                frames = n
            case "--size":
                let text = try value(argument)
                guard let size = PixelSize(parsing: text) else {
                    throw UsageError("--size expects WIDTHxHEIGHT, got '\(text)'")
                }
                request.size = size
            case "--fps":
                let text = try value(argument)
                guard let fps = Double(text), fps > 0, fps <= 240 else {
                    throw UsageError("--fps expects a rate up to 240, got '\(text)'")
                }
                request.frameRate = fps
            case "--scale":
                let text = try value(argument)
                guard let n = Int(text), let scale = DecodeScale(rawValue: n) else {
                    throw UsageError("--scale must be 1, 2, 4 or 8, got '\(text)'")
                }
                request.decodeScale = scale
            case "--gray": request.pixelFormat = .gray
            case "--json": json = true
            default: throw UsageError("unknown capture option '\(argument)' (see dockctl capture --help)")
            }
        }
    }

    public struct Report: Codable, Sendable {
        public var device: String
        public var summary: String
        public var frames: Int
        public var size: String
        public var sequenceIncreasing: Bool
        public var timestampsIncreasing: Bool
        public var sizesConsistent: Bool
        public var measuredFrameRate: Double
        public var sequenceGaps: Int
        public var errorFrames: Int
        public var corruptFrames: Int
        public var skippedForNewer: Int
        public var readyLatencyMedianMilliseconds: Double
        public var readyLatencyP99Milliseconds: Double
        /// What the device gave instead of the size asked for (it offers no such size), if anything.
        public var sizeNote: String?
        public var passed: Bool
    }

    public func run(system: any VideoDeviceSystem = LinuxVideoDeviceSystem()) throws(SessionError) -> Report {
        let clock = SystemMonotonicClock()
        let camera: V4L2Camera
        do { camera = try V4L2Camera(path: device, request: request, system: system, clock: clock) } catch {
            throw SessionError(error.description)
        }
        defer { camera.close() }
        var stamps: [FrameStamp] = []
        var sizes = Set<PixelSize>()
        var latencies: [Double] = []
        while stamps.count < frames {
            do {
                guard let frame = try camera.nextFrame() else { break }
                latencies.append(clock.now.seconds(since: frame.stamp.time) * 1000)
                stamps.append(frame.stamp)
                sizes.insert(frame.size)
            } catch {
                throw SessionError("after \(stamps.count) frames: \(error.message)")
            }
        }
        let sequenceOK = zip(stamps, stamps.dropFirst()).allSatisfy { $0.sequence < $1.sequence }
        let timeOK = zip(stamps, stamps.dropFirst()).allSatisfy { $0.time < $1.time }
        let span = stamps.count > 1 ? stamps.last!.time.seconds(since: stamps.first!.time) : 0
        let latency = Percentiles(latencies)
        let c = camera.counters
        return Report(
            device: device, summary: camera.summary, frames: stamps.count,
            size: sizes.map(\.description).sorted().joined(separator: ","),
            sequenceIncreasing: sequenceOK, timestampsIncreasing: timeOK, sizesConsistent: sizes == [camera.size],
            measuredFrameRate: span > 0 ? Double(stamps.count - 1) / span : 0, sequenceGaps: c.sequenceGaps,
            errorFrames: c.errorFrames, corruptFrames: c.corruptFrames, skippedForNewer: c.skippedForNewer,
            readyLatencyMedianMilliseconds: latency.median ?? 0, readyLatencyP99Milliseconds: latency.p99 ?? 0,
            sizeNote: camera.captureSize == request.size
                ? nil : "asked for \(request.size); the device offers \(camera.captureSize), so that is what it gives",
            passed: stamps.count == frames && sequenceOK && timeOK && sizes == [camera.size])
    }

    public static func describe(_ r: Report) -> String {
        """
        \(r.summary)\(r.sizeNote.map { "\n" + $0 } ?? "")
        frames \(r.frames), size \(r.size) (consistent: \(r.sizesConsistent))
        sequence strictly increasing: \(r.sequenceIncreasing); timestamps strictly increasing: \(r.timestampsIncreasing)
        measured \(String(format: "%.2f", r.measuredFrameRate)) fps; driver gaps \(r.sequenceGaps), error frames \(r.errorFrames), corrupt \(r.corruptFrames), skipped for newer \(r.skippedForNewer)
        capture→frame ready: median \(String(format: "%.2f", r.readyLatencyMedianMilliseconds)) ms, p99 \(String(format: "%.2f", r.readyLatencyP99Milliseconds)) ms
        \(r.passed ? "PASS" : "FAIL")
        """
    }
}
