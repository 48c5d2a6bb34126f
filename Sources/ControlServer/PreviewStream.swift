import DockCore
import DockKit
import Foundation
import Imaging
import Pipeline

/// Draws what the pipeline sees on its newest frame: detections (cyan), tracked subjects
/// (white, the framed ones green), the region of interest (yellow) and the framing target
/// (the red cross where the framed subject's centre is being brought).
struct PreviewRenderer: Sendable {
    let accessory: DockAccessory
    let monitor: SessionMonitor
    var quality = 75

    /// The newest frame, annotated, as JPEG; nil before the first frame.
    func jpeg() -> (bytes: [UInt8], sequence: Int)? {
        guard let (snapshot, sequence) = monitor.latestSnapshot() else { return nil }
        var image = (try? snapshot.frame.converted(to: .bgr)) ?? snapshot.frame
        let coordinates = ImageCoordinates(size: image.size)
        for rect in snapshot.detections { image.drawRect(rect, color: .cyan, thickness: 1) }
        for subject in snapshot.subjects {
            let rect = coordinates.pixels(subject.rect)
            let framed = snapshot.framed.contains(subject.uuid)
            image.drawRect(rect, color: framed ? .green : .white, thickness: framed ? 3 : 1)
            image.drawText("#\(subject.id)", at: PixelPoint(x: rect.x, y: max(16, rect.y - 6)), scale: 0.6,
                           color: framed ? .green : .white, thickness: 2)
        }
        let region = accessory.regionOfInterest
        if region != CGRect(x: 0, y: 0, width: 1, height: 1) {
            let w = Double(image.width), h = Double(image.height)
            image.drawRect(PixelRect(x: region.origin.x * w, y: region.origin.y * h, width: region.width * w, height: region.height * h),
                           color: .yellow, thickness: 2)
        }
        if let aim = accessory.framingTarget {
            let p = coordinates.pixels(NormalizedRect(x: aim.x, y: aim.y, width: 0, height: 0))
            image.drawLine(from: PixelPoint(x: p.x - 16, y: p.y), to: PixelPoint(x: p.x + 16, y: p.y), color: .red, thickness: 2)
            image.drawLine(from: PixelPoint(x: p.x, y: p.y - 16), to: PixelPoint(x: p.x, y: p.y + 16), color: .red, thickness: 2)
        }
        guard let bytes = try? image.jpegData(quality: quality) else { return nil }
        return (bytes, sequence)
    }
}

/// The live preview as multipart/x-mixed-replace JPEG parts (what browsers show in an <img>),
/// a new part for each new frame, at most `maximumRate` a second.
final class PreviewStream: HTTPBodyStream, @unchecked Sendable {
    static let boundary = "opendock-frame"
    private let renderer: PreviewRenderer
    private let minimumInterval: Double
    private let state = Protected<(sent: Int, at: Date, closed: Bool)>((0, .distantPast, false))

    init(renderer: PreviewRenderer, maximumRate: Double = 10) {
        self.renderer = renderer
        minimumInterval = 1 / maximumRate
    }

    func next(waiting: Double) -> StreamChunk {
        let deadline = Date(timeIntervalSinceNow: waiting)
        while Date() < deadline {
            let (sent, at, closed) = state.withLock { $0 }
            if closed { return .end }
            let due = at.addingTimeInterval(minimumInterval)
            if Date() >= due, let latest = renderer.monitorSequence, latest != sent, let (jpeg, sequence) = renderer.jpeg() {
                state.withLock { $0.sent = sequence; $0.at = Date() }
                let head = "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n"
                return .bytes(Array(head.utf8) + jpeg + Array("\r\n".utf8))
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return .idle
    }

    func close() { state.withLock { $0.closed = true } }
}

extension PreviewRenderer {
    /// The number of the newest snapshot, without drawing it.
    var monitorSequence: Int? { monitor.latestSnapshot()?.1 }
}
