import Capture
import DockCore
import Foundation
import Imaging

/// Writes every captured frame, clean, to a virtual camera on a thread of its own: the capture
/// thread posts each frame the moment it has it (a newest-only mailbox, so a slow write never
/// holds capture back, and a dropped frame is counted), and perception sets the crop digital
/// framing shows. One conversion per frame: the shown region decoded at the scale the output
/// needs, sized, packed YUYV. A write that fails is counted and said once; tracking goes on.
/// While no frame comes (the camera unplugged, or not yet streaming) a placeholder picture is
/// written a few times a second, so a program reading the virtual camera keeps getting
/// pictures and does not give up on it.
public final class VideoOutputSink: Sendable {
    public struct Figures: Sendable {
        public var written = 0
        /// Frames a newer one replaced before they could be written.
        public var replaced = 0
        public var failed = 0
        /// Placeholder pictures written while no frame came.
        public var placeholders = 0
        public var firstError: String?
        /// Capture → written, milliseconds, the newest `latencyWindow`.
        public var latencies: [Double] = []
    }

    public let summary: String
    public let size: PixelSize
    private let mailbox = FrameMailbox()
    private let shown = Protected<NormalizedRect?>(nil)
    private let figures = Protected(Figures())
    private let ended = Protected(false)
    static let latencyWindow = 10_000

    /// Starts the writing thread; it owns `output` from now on. After `placeholderAfter` seconds
    /// without a frame, a placeholder is written every `placeholderInterval` until frames return.
    public init(
        output: V4L2VideoOutput, clock: any MonotonicClock, placeholderAfter: Double = 1,
        placeholderInterval: Double = 0.2, onError: @escaping @Sendable (String) -> Void
    ) {
        summary = output.summary
        size = output.size
        let owned = OwnedOutput(output)
        let (mailbox, shown, figures, ended) = (mailbox, shown, figures, ended)
        let thread = Thread {
            defer { ended.withLock { $0 = true } }
            defer { owned.output.close() }
            var lastWrite = clock.now
            let placeholder = try? Self.placeholder(size: owned.output.size)
            while true {
                guard let frame = try? mailbox.take(timeout: placeholderInterval) else {
                    if mailbox.closed { return }
                    if let placeholder, clock.now.seconds(since: lastWrite) >= placeholderAfter - placeholderInterval {
                        // Failures are the frames' to count and say; a placeholder only tries.
                        if (try? owned.output.write(placeholder)) != nil {
                            figures.withLock { $0.placeholders += 1 }
                        }
                    }
                    continue
                }
                lastWrite = clock.now
                do {
                    let packed = try Self.render(frame, crop: shown.withLock { $0 }, size: owned.output.size)
                    try owned.output.write(packed)
                    let latency = clock.now.seconds(since: frame.stamp.time) * 1000
                    figures.withLock {
                        $0.written += 1
                        $0.latencies.append(latency)
                        if $0.latencies.count > Self.latencyWindow { $0.latencies.removeFirst(Self.latencyWindow / 2) }
                    }
                } catch {
                    let message = "\(error)"
                    let first = figures.withLock { figures in
                        figures.failed += 1
                        guard figures.firstError == nil else { return false }
                        figures.firstError = message
                        return true
                    }
                    if first { onError(message + "; tracking goes on") }
                }
            }
        }
        thread.name = "opendock.videoout"
        thread.start()
    }

    /// Hands a captured frame over (from the capture thread); never waits.
    public func post(_ frame: Frame) { mailbox.post(frame) }

    /// The part of the frame to show from now on (unit rect, lower-left origin); nil = all of it.
    public func show(_ crop: NormalizedRect?) { shown.withLock { $0 = crop } }

    public var current: Figures {
        var now = figures.withLock { $0 }
        now.replaced = mailbox.replaced
        return now
    }

    /// Writes what is left, then ends the thread and closes the device.
    public func finish() {
        mailbox.close()
        while !ended.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.002) }
    }

    /// What readers see while no frame comes: dark grey, saying why, packed YUYV.
    static func placeholder(size: PixelSize) throws(ImagingError) -> [UInt8] {
        var picture = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .bgr, fill: 40)
        let scale = Double(size.width) / 640
        picture.drawText(
            "camera unavailable: waiting for it",
            at: PixelPoint(x: 0.2 * Double(size.width), y: 0.5 * Double(size.height)),
            scale: 0.7 * scale, color: .white, thickness: max(1, Int(scale.rounded())))
        return try picture.packedYUYV()
    }

    /// The output picture of `frame`: the `crop` of it (the whole frame when nil) at `size`,
    /// packed YUYV. The crop is decoded from the frame's finer picture when it has one, at the
    /// coarsest scale that still fills the output.
    public static func render(_ frame: Frame, crop: NormalizedRect?, size: PixelSize) throws(ImagingError) -> [UInt8] {
        var picture: Frame
        if let crop, let region = frame.region(crop, minimumWidth: size.width) {
            picture = region
        } else {
            picture = frame.picture(at: size)
        }
        if picture.size != size {
            picture = try picture.resized(to: size, interpolation: picture.width < size.width ? .linear : .area)
        }
        return try picture.packedYUYV()
    }
}

/// The device, used only by the writing thread once handed over.
private final class OwnedOutput: @unchecked Sendable {
    let output: V4L2VideoOutput
    init(_ output: V4L2VideoOutput) { self.output = output }
}
