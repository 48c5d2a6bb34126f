import Bench
import Capture
import DockCore
import Foundation
import Imaging
import Perception
import Pipeline

/// What one detection pass over a recording cost and found: the shape both `dockctl peer-run`
/// and Scripts/peer/yunet_peer.py print.
public struct PeerRunResult: Sendable {
    public var frames: Int
    public var cpuSeconds: Double
    public var wallSeconds: Double
    public var frameMilliseconds: [Double]
    public var maxResidentKB: Double
    /// [frame, x, y, width, height, score] in the video's pixels.
    public var faces: [[Double]]

    public var cpuPerFrameMilliseconds: Double { frames > 0 ? cpuSeconds * 1000 / Double(frames) : .nan }

    public init(json: Data) throws(SessionError) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let frames = object["frames"] as? Int, let cpu = (object["cpu_s"] as? NSNumber)?.doubleValue,
            let wall = (object["wall_s"] as? NSNumber)?.doubleValue, let times = object["frame_ms"] as? [NSNumber],
            let rss = (object["max_rss_kb"] as? NSNumber)?.doubleValue, let faces = object["faces"] as? [[NSNumber]]
        else {
            throw SessionError(
                "a peer run printed something other than its JSON result: \(String(decoding: json.prefix(200), as: UTF8.self))"
            )
        }
        self.frames = frames
        cpuSeconds = cpu
        wallSeconds = wall
        frameMilliseconds = times.map(\.doubleValue)
        maxResidentKB = rss
        self.faces = faces.map { $0.map(\.doubleValue) }
    }

    public init(
        frames: Int, cpuSeconds: Double, wallSeconds: Double, frameMilliseconds: [Double], maxResidentKB: Double,
        faces: [[Double]]
    ) {
        self.frames = frames
        self.cpuSeconds = cpuSeconds
        self.wallSeconds = wallSeconds
        self.frameMilliseconds = frameMilliseconds
        self.maxResidentKB = maxResidentKB
        self.faces = faces
    }

    public var jsonText: String {
        let object: [String: Any] = [
            "frames": frames, "cpu_s": cpuSeconds, "wall_s": wallSeconds, "frame_ms": frameMilliseconds,
            "max_rss_kb": maxResidentKB, "faces": faces,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// OpenDock's side, as dockd does it: MJPEG decoded at the DCT scale the detector's input
    /// needs, then dockd's face detection path (`FaceDetectionPath`: whole scans a few times a
    /// second and whenever nothing is tracked, looks around the tracked faces in between).
    /// Faces are reported in the video's pixels.
    public static func runOurs(video: String, modelPath: String, detectWidth: Int) throws(SessionError) -> PeerRunResult
    {
        let path: FaceDetectionPath
        let source: VideoFileSource
        let toVideo: Double
        do {
            path = FaceDetectionPath(
                faces: try YuNetFaceDetector(modelPath: modelPath, inputWidth: detectWidth),
                regionFaces: try YuNetFaceDetector(
                    modelPath: modelPath, inputWidth: 2 * DetectionStage.regionTileSide))
            // As dockd does: MJPEG decoded at the DCT scale the detector's input needs.
            let fullWidth = try VideoFileSource(path: video).size.width
            source = try VideoFileSource(path: video, scale: .coarsest(keeping: detectWidth, of: fullWidth))
            toVideo = Double(fullWidth) / Double(source.size.width)
        } catch {
            throw SessionError("peer-run: \(error)")
        }
        let clock = SystemMonotonicClock()
        let cpuStart = SessionSummary.processCPUSeconds()
        let wallStart = clock.now
        var times: [Double] = []
        var faces: [[Double]] = []
        var index = 0
        while true {
            let start = clock.now
            let frame: Frame
            do {
                guard let next = try source.nextFrame() else { break }
                frame = next
            } catch {
                throw SessionError("peer-run: \(error.message)")
            }
            let found = path.faces(in: frame).found.map { $0.scaled(by: toVideo) }
            times.append(clock.now.seconds(since: start) * 1000)
            faces += found.map { [Double(index), $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height, $0.score] }
            index += 1
        }
        return PeerRunResult(
            frames: index, cpuSeconds: SessionSummary.processCPUSeconds() - cpuStart,
            wallSeconds: clock.now.seconds(since: wallStart), frameMilliseconds: times,
            maxResidentKB: ProcessResources.peakResidentBytes() / 1024, faces: faces)
    }
}

/// OpenDock's detection path against the Python peer on the same recording, run alternately in
/// separate processes (so each has its own memory figure), `rounds` times each.
public struct PeerComparison: Sendable {
    public var video: String
    public var ours: [PeerRunResult]
    public var python: [PeerRunResult]
    /// The real-time rig's capture → command latency (p50, p99 ms) from a short soak run in the
    /// same command, so the report holds what a user's camera would see beside the cost figures.
    public var liveLatency: (p50: Double, p99: Double)?

    public init(video: String, ours: [PeerRunResult], python: [PeerRunResult]) {
        self.video = video
        self.ours = ours
        self.python = python
    }

    /// Runs `ours` and `python` alternately; each returns the child's standard output.
    public static func run(
        video: String, rounds: Int, ours: () throws(SessionError) -> Data,
        python: () throws(SessionError) -> Data
    ) throws(SessionError) -> PeerComparison {
        var a: [PeerRunResult] = []
        var b: [PeerRunResult] = []
        for _ in 0..<rounds {
            a.append(try PeerRunResult(json: try ours()))
            b.append(try PeerRunResult(json: try python()))
        }
        return PeerComparison(video: video, ours: a, python: b)
    }

    /// Runs a program and returns its standard output; a failure carries its standard error.
    public static func output(of executable: String, _ arguments: [String]) throws(SessionError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw SessionError("cannot start \(executable): \(error.localizedDescription)")
        }
        // Read before waiting: a child blocked on a full pipe would never exit.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw SessionError(
                "\((executable as NSString).lastPathComponent) \(arguments.first ?? "") failed (status \(process.terminationStatus)): \(text)"
            )
        }
        return data
    }

    struct Side {
        var cpuPerFrame: Double
        var wallSeconds: Double
        var p50: Double
        var p99: Double
        var rssMB: Double
    }

    /// Medians over rounds of each round's figures.
    static func side(_ runs: [PeerRunResult]) -> Side {
        func median(_ f: (PeerRunResult) -> Double?) -> Double { Percentiles(runs.compactMap(f)).median ?? .nan }
        return Side(
            cpuPerFrame: median(\.cpuPerFrameMilliseconds),
            wallSeconds: median(\.wallSeconds),
            p50: median { Percentiles($0.frameMilliseconds).median },
            p99: median { Percentiles($0.frameMilliseconds).p99 },
            rssMB: median { $0.maxResidentKB / 1024 })
    }

    /// How far the two detectors agree on the first round: faces of one matched to the other's
    /// in the same frame (IoU ≥ 0.5, greedy by IoU), and the mean IoU of the matches.
    public var agreement: (oursMatched: Double, pythonMatched: Double, meanIoU: Double) {
        guard let a = ours.first, let b = python.first else { return (.nan, .nan, .nan) }
        func byFrame(_ faces: [[Double]]) -> [Int: [PixelRect]] {
            Dictionary(grouping: faces, by: { Int($0[0]) }).mapValues {
                $0.map { PixelRect(x: $0[1], y: $0[2], width: $0[3], height: $0[4]) }
            }
        }
        let left = byFrame(a.faces)
        let right = byFrame(b.faces)
        var matched = 0
        var ious: [Double] = []
        for (frame, boxes) in left {
            var others = right[frame] ?? []
            for box in boxes {
                guard
                    let best = others.indices.max(by: {
                        box.intersectionOverUnion(others[$0]) < box.intersectionOverUnion(others[$1])
                    }),
                    box.intersectionOverUnion(others[best]) >= 0.5
                else { continue }
                ious.append(box.intersectionOverUnion(others[best]))
                others.remove(at: best)
                matched += 1
            }
        }
        return (
            a.faces.isEmpty ? .nan : Double(matched) / Double(a.faces.count),
            b.faces.isEmpty ? .nan : Double(matched) / Double(b.faces.count),
            Percentiles(ious).mean ?? .nan
        )
    }

    var rows: [(String, String, String, String)] {
        let o = Self.side(ours)
        let p = Self.side(python)
        func row(_ name: String, _ a: Double, _ b: Double, _ format: String) -> (String, String, String, String) {
            (name, String(format: format, a), String(format: format, b), String(format: "%.2f", a / b))
        }
        return [
            row("CPU ms per frame", o.cpuPerFrame, p.cpuPerFrame, "%.2f"),
            row("wall s", o.wallSeconds, p.wallSeconds, "%.2f"),
            row("frame p50 ms", o.p50, p.p50, "%.2f"),
            row("frame p99 ms", o.p99, p.p99, "%.2f"),
            row("peak RSS MB", o.rssMB, p.rssMB, "%.1f"),
        ]
    }

    public var text: String {
        let agree = agreement
        var lines = [
            "Python peer on \((video as NSString).lastPathComponent): \(ours.first?.frames ?? 0) frames, \(ours.count) rounds each, alternating",
            "figure".padding(toLength: 20, withPad: " ", startingAt: 0) + "   OpenDock     python   ratio",
        ]
        for (name, a, b, r) in rows {
            func right(_ s: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - s.count)) + s
            }
            lines.append(
                name.padding(toLength: 20, withPad: " ", startingAt: 0) + right(a, 11) + right(b, 11) + right(r, 8))
        }
        lines.append(
            String(
                format: "detections: %.1f %% of ours match the peer's, %.1f %% of the peer's match ours, mean IoU %.3f",
                agree.oursMatched * 100, agree.pythonMatched * 100, agree.meanIoU))
        if let live = liveLatencyLine { lines.append(live) }
        return lines.joined(separator: "\n")
    }

    var liveLatencyLine: String? {
        liveLatency.map {
            String(
                format: "real-time rig (dockctl soak, 30 s): capture→command p50 %.2f ms, p99 %.2f ms", $0.p50, $0.p99)
        }
    }

    /// Capture → command p50/p99 from `dockctl soak --json`'s output.
    public static func liveLatency(fromSoakJSON data: Data) throws(SessionError) -> (p50: Double, p99: Double) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let p50 = (object["capture_command_p50_ms"] as? NSNumber)?.doubleValue,
            let p99 = (object["capture_command_p99_ms"] as? NSNumber)?.doubleValue
        else {
            throw SessionError(
                "the soak run printed no capture→command figures: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return (p50, p99)
    }

    public var markdown: String {
        let agree = agreement
        var lines = ["| figure | OpenDock | python3-opencv | ratio |", "|---|---:|---:|---:|"]
        for (name, a, b, r) in rows { lines.append("| \(name) | \(a) | \(b) | \(r) |") }
        lines.append("")
        lines.append(
            String(
                format:
                    "Detections agree: %.1f %% of ours match the peer's, %.1f %% of the peer's match ours (IoU ≥ 0.5), mean IoU %.3f.",
                agree.oursMatched * 100, agree.pythonMatched * 100, agree.meanIoU))
        if let live = liveLatencyLine { lines += ["", live + "."] }
        return lines.joined(separator: "\n")
    }

    public var json: [String: Any] {
        let o = Self.side(ours)
        let p = Self.side(python)
        let agree = agreement
        func side(_ s: Side) -> [String: Any] {
            [
                "cpu_ms_per_frame": s.cpuPerFrame, "wall_s": s.wallSeconds, "frame_p50_ms": s.p50,
                "frame_p99_ms": s.p99,
                "peak_rss_mb": s.rssMB,
            ]
        }
        var object: [String: Any] = [
            "video": video, "rounds": ours.count, "frames": ours.first?.frames ?? 0, "opendock": side(o),
            "python": side(p),
            "cpu_ratio": o.cpuPerFrame / p.cpuPerFrame, "p50_ratio": o.p50 / p.p50, "p99_ratio": o.p99 / p.p99,
            "rss_ratio": o.rssMB / p.rssMB, "ours_matched": agree.oursMatched, "python_matched": agree.pythonMatched,
            "mean_iou": agree.meanIoU,
        ]
        if let live = liveLatency {
            object["live_capture_command_p50_ms"] = live.p50
            object["live_capture_command_p99_ms"] = live.p99
        }
        return object
    }
}
