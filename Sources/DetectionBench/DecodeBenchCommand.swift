import Bench
import Capture
import DockCore
import Foundation
import Imaging
import Pipeline
import Simulation

/// `dockctl bench-decode`: time per frame to decode a 720p MJPEG recording with libturbojpeg at
/// full, 1/2 and 1/4 scale (and gray at 1/2), the scales interleaved frame by frame so they share
/// the machine's moods. Without --file it records its own clip from the demo scene.
public struct DecodeBenchCommand {
    public var file: String?
    public var frames = 150
    public var mediaDirectory: String?

    public static let help = """
        dockctl bench-decode — MJPEG decode time per frame at full, 1/2 and 1/4 scale, and of a
        full-resolution region (a second look).

        Usage: dockctl bench-decode [--file MJPEG.avi] [--frames N] [--media DIR]

        Without --file it writes a 1280x720 MJPEG clip of the demo scene, with sensor-like noise, to a
        temporary file first.
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--file":
                guard let v = rest.popFirst() else { throw UsageError("--file needs a value") }
                file = v
            case "--media":
                guard let v = rest.popFirst() else { throw UsageError("--media needs a value") }
                mediaDirectory = v
            case "--frames":
                guard let v = rest.popFirst(), let n = Int(v), n > 0 else {
                    throw UsageError("--frames expects a positive whole number")
                }
                frames = n
            default: throw UsageError("unknown bench-decode option '\(argument)' (see dockctl bench-decode --help)")
            }
        }
    }

    /// Writes `count` 1280x720 views of the demo scene as MJPEG.
    func recordClip(count: Int) throws(SessionError) -> String {
        var configuration = SessionConfiguration()
        configuration.mediaDirectory = mediaDirectory
        let path = NSTemporaryDirectory() + "opendock-720p-\(UUID().uuidString.prefix(8)).avi"
        do {
            let scene = try GeneratedScene(photos: ScenePhotos(mediaDirectory: configuration.resolvedMediaDirectory))
            let view = PixelSize(width: 1280, height: 720)
            let camera = VirtualCamera(
                worldSize: scene.size, worldIntrinsics: scene.worldIntrinsics, viewSize: view,
                viewIntrinsics: CameraIntrinsics(horizontalFieldOfView: 60 * .pi / 180, size: view))
            let writer = try VideoWriter(path: path, size: view, fps: 30)
            for i in 0..<count {
                let world = try scene.render(sequence: UInt64(i % scene.frameCount))
                var view = try camera.render(world, pose: Vector3D(x: 0, y: 0.02 * sin(Double(i) / 10), z: 0))
                // Sensor noise, as a real webcam has: it is what makes MJPEG frames large.
                try view.addNoise(sigma: 4, seed: UInt64(i))
                try writer.write(view)
            }
            writer.close()
        } catch {
            throw SessionError("cannot record the benchmark clip: \(error)")
        }
        return path
    }

    public func run(progress: (String) -> Void) throws(SessionError) -> String {
        let path: String
        if let file {
            path = file
        } else {
            progress("recording a 1280x720 MJPEG clip of the demo scene")
            path = try recordClip(count: frames)
        }
        defer { if file == nil { try? FileManager.default.removeItem(atPath: path) } }
        let packets: [[UInt8]]
        do { packets = try MJPEGPackets.read(path: path, limit: frames) } catch { throw SessionError(error.message) }
        guard let first = packets.first else { throw SessionError("\(path) has no frames") }
        let decoder = JPEGDecoder()
        let size: PixelSize
        do { size = try first.withUnsafeBytes { try decoder.size(of: $0) } } catch { throw SessionError("\(error)") }

        var variants: [(name: String, decode: ([UInt8], FrameStamp) -> Void)] = [
            ("bgr 1/1", .full, .bgr), ("bgr 1/2", .half, .bgr), ("bgr 1/4", .quarter, .bgr), ("gray 1/2", .half, .gray),
        ].map { name, scale, format in
            (
                name,
                { packet, stamp in
                    _ = try? packet.withUnsafeBytes {
                        try decoder.decode($0, scale: scale, format: format, stamp: stamp)
                    }
                }
            )
        }
        // What a second look costs: a 160-pixel square at full resolution from the kept JPEG,
        // in the middle of the picture and at its foot (every row above entropy-decoded).
        let side = Double(min(160, size.width, size.height))
        for (name, y) in [
            ("region mid", (Double(size.height) - side) / 2), ("region foot", Double(size.height) - side),
        ] {
            let rect = PixelRect(
                x: ((Double(size.width) - side) / 2).rounded(.down), y: y.rounded(.down), width: side, height: side)
            variants.append(
                (
                    name,
                    { packet, _ in
                        _ = JPEGDetail(data: packet, fullSize: size).region(rect, scale: 1, format: .bgr)
                    }
                ))
        }
        var timings = StageTimings()
        let clock = SystemMonotonicClock()
        for (index, packet) in packets.enumerated() {
            let stamp = FrameStamp(sequence: UInt64(index), time: clock.now)
            for variant in variants {
                let start = clock.now
                variant.decode(packet, stamp)
                timings.record(variant.name, milliseconds: clock.now.seconds(since: start) * 1000)
            }
        }
        let meanKB = Double(packets.reduce(0) { $0 + $1.count }) / Double(packets.count) / 1024
        var lines = [
            String(
                format: "%d frames of %@ MJPEG, mean %.0f KB per frame", packets.count, "\(size)" as NSString, meanKB),
            "decode        median ms    p99 ms",
        ]
        for variant in variants {
            let p = timings.percentiles(variant.name)
            lines.append(
                variant.name.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: " %10.2f %9.2f", p.median ?? .nan, p.p99 ?? .nan))
        }
        let full = timings.percentiles("bgr 1/1").median ?? .nan
        let half = timings.percentiles("bgr 1/2").median ?? .nan
        let quarter = timings.percentiles("bgr 1/4").median ?? .nan
        let region = timings.percentiles("region foot").median ?? .nan
        lines.append(
            String(
                format: "ratio to full size: 1/2 %.2f, 1/4 %.2f, a 160-pixel region at the foot %.2f", half / full,
                quarter / full, region / full))
        return lines.joined(separator: "\n")
    }
}
