import DockCore
import DockEngine
import DockKit
import Foundation
import Imaging
import Pipeline

/// Draws what the pipeline sees on its newest frame: detections (cyan), tracked subjects
/// (white, the framed ones green), the region of interest (yellow) and the framing target
/// (the red cross where the framed subject's centre is being brought).
struct PreviewRenderer: Sendable {
    let accessory: LocalDock
    let monitor: SessionMonitor
    var quality = 75

    /// The newest frame, annotated, as JPEG; nil before the first frame.
    func jpeg() -> (bytes: [UInt8], sequence: Int)? {
        guard let (snapshot, sequence) = monitor.latestSnapshot() else { return nil }
        let frame = snapshot.frame
        let shown = frame.picture(at: Frame.viewingSize(of: frame.size))
        var image = (try? shown.converted(to: .bgr)) ?? shown
        let coordinates = ImageCoordinates(size: image.size)
        let enlargement = Double(image.width) / Double(frame.width)
        for rect in snapshot.detections { image.drawRect(rect.scaled(by: enlargement), color: .cyan, thickness: 1) }
        for subject in snapshot.subjects {
            let rect = coordinates.pixels(subject.rect)
            let framed = snapshot.framed.contains(subject.uuid)
            image.drawRect(rect, color: framed ? .green : .white, thickness: framed ? 3 : 1)
            image.drawText(
                "#\(subject.id)", at: PixelPoint(x: rect.x, y: max(16, rect.y - 6)), scale: 0.6,
                color: framed ? .green : .white, thickness: 2)
        }
        let region = accessory.regionOfInterest
        if region != CGRect(x: 0, y: 0, width: 1, height: 1) {
            let w = Double(image.width)
            let h = Double(image.height)
            image.drawRect(
                PixelRect(
                    x: region.origin.x * w, y: region.origin.y * h, width: region.width * w, height: region.height * h),
                color: .yellow, thickness: 2)
        }
        if let crop = monitor.crop {
            // What digital framing shows: the virtual camera's picture, on the whole frame.
            image.drawRect(coordinates.pixels(crop), color: .magenta, thickness: 3)
        }
        if let aim = accessory.framingTarget {
            let p = coordinates.pixels(NormalizedRect(x: aim.x, y: aim.y, width: 0, height: 0))
            image.drawLine(
                from: PixelPoint(x: p.x - 16, y: p.y), to: PixelPoint(x: p.x + 16, y: p.y), color: .red, thickness: 2)
            image.drawLine(
                from: PixelPoint(x: p.x, y: p.y - 16), to: PixelPoint(x: p.x, y: p.y + 16), color: .red, thickness: 2)
        }
        guard let bytes = try? image.jpegData(quality: quality) else { return nil }
        return (bytes, sequence)
    }
}

extension PreviewRenderer {
    /// The newest frame as the camera gave it (no drawing), as JPEG, with how old it is now
    /// (seconds on the accessory's clock); nil before the first frame.
    func cleanJPEG() -> (bytes: [UInt8], sequence: Int, stamp: FrameStamp, age: Double, size: PixelSize)? {
        guard let (snapshot, sequence) = monitor.latestSnapshot() else { return nil }
        let frame = snapshot.frame
        let shown = frame.picture(at: Frame.viewingSize(of: frame.size))
        let image = (try? shown.converted(to: .bgr)) ?? shown
        guard let bytes = try? image.jpegData(quality: quality) else { return nil }
        return (bytes, sequence, frame.stamp, max(0, accessory.now.seconds(since: frame.stamp.time)), image.size)
    }

    /// What the virtual camera shows of the newest frame (the crop digital framing follows, or
    /// the whole frame), clean, as JPEG; nil before the first frame.
    func outputJPEG() -> [UInt8]? {
        guard let (snapshot, _) = monitor.latestSnapshot() else { return nil }
        let frame = snapshot.frame
        let size = Frame.viewingSize(of: frame.size)
        var shown = frame.picture(at: size)
        if let crop = monitor.crop {
            let region = frame.region(crop, minimumWidth: size.width)
            if let region, let sized = try? region.resized(to: size, interpolation: .linear) { shown = sized }
        }
        let image = (try? shown.converted(to: .bgr)) ?? shown
        return try? image.jpegData(quality: quality)
    }

    /// The number of the newest snapshot, without drawing it.
    var monitorSequence: Int? { monitor.latestSnapshot()?.1 }
}

/// Frames as multipart/x-mixed-replace JPEG parts (what browsers show in an <img>), a new part
/// for each new frame, at most `maximumRate` a second: the annotated preview, or the clean
/// frames a DockKit program runs its own vision on.
final class PreviewStream: HTTPBodyStream, @unchecked Sendable {
    static let boundary = "opendock-frame"
    /// One part: the JPEG, the snapshot's number, extra part headers.
    typealias Part = (jpeg: [UInt8], sequence: Int, headers: [String])
    private let renderer: PreviewRenderer
    private let render: @Sendable (PreviewRenderer) -> Part?
    private let minimumInterval: Double
    private let state = Protected<(sent: Int, at: Date, closed: Bool)>((0, .distantPast, false))

    init(
        renderer: PreviewRenderer, maximumRate: Double = 10,
        render: @escaping @Sendable (PreviewRenderer) -> Part? = { r in r.jpeg().map { ($0.bytes, $0.sequence, []) } }
    ) {
        self.renderer = renderer
        self.render = render
        minimumInterval = 1 / maximumRate
    }

    /// The clean frames, each part saying its capture sequence and age when sent.
    static func cleanFrames(renderer: PreviewRenderer, maximumRate: Double) -> PreviewStream {
        PreviewStream(renderer: renderer, maximumRate: maximumRate) { r in
            r.cleanJPEG().map { frame in
                (
                    frame.bytes, frame.sequence,
                    [
                        "X-Frame-Sequence: \(frame.stamp.sequence)",
                        "X-Frame-Age: \(String(format: "%.6f", frame.age))",
                        "X-Frame-Size: \(frame.size.width)x\(frame.size.height)",
                    ]
                )
            }
        }
    }

    func next(waiting: Double) -> StreamChunk {
        let deadline = Date(timeIntervalSinceNow: waiting)
        while Date() < deadline {
            let (sent, at, closed) = state.withLock { $0 }
            if closed { return .end }
            let due = at.addingTimeInterval(minimumInterval)
            if Date() >= due, let latest = renderer.monitorSequence, latest != sent, let part = render(renderer) {
                state.withLock {
                    $0.sent = part.sequence
                    $0.at = Date()
                }
                let lines =
                    ["--\(Self.boundary)", "Content-Type: image/jpeg", "Content-Length: \(part.jpeg.count)"]
                    + part.headers
                let head = lines.joined(separator: "\r\n") + "\r\n\r\n"
                return .bytes(Array(head.utf8) + part.jpeg + Array("\r\n".utf8))
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return .idle
    }

    func close() { state.withLock { $0.closed = true } }
}
