import Capture
import DockCore
import Foundation

/// A USB webcam streaming MJPEG in real time, made from a recording: the JPEG frames of an MJPEG
/// AVI, looped, fed one at a time to a scripted V4L2 device that delivers them at the camera's
/// frame rate with real timestamps, as a UVC camera at that size and rate does. A feeder thread
/// keeps at most two frames ahead, so the recording is read from disk as it plays and costs
/// the process no more memory than a frame or two (the kernel's buffers in a real camera).
public final class RecordedWebcam: @unchecked Sendable {
    public let device: ScriptedVideoDevice
    public let size: PixelSize
    public let frameRate: Int
    private let path: String
    private let stopped = Protected(false)
    private let done = DispatchSemaphore(value: 0)
    private let fed = Protected(0)

    /// Opens `path` (an MJPEG AVI) and starts feeding; throws a one-line reason when it cannot.
    public init(recording path: String, frameRate: Int = 30) throws(FrameSourceError) {
        let reader: MJPEGAVIReader
        do { reader = try MJPEGAVIReader(path: path) } catch {
            throw FrameSourceError(
                "\(path) is not a usable MJPEG AVI (\(error)); record one with dockd --output FILE.avi")
        }
        self.path = path
        self.frameRate = frameRate
        size = PixelSize(width: reader.width, height: reader.height)
        device = ScriptedVideoDevice(
            path: "/dev/video0", stableName: "/dev/v4l/by-id/usb-OpenDock_Recorded_Webcam-video-index0",
            formats: [.init(.mjpeg, "Motion-JPEG", compressed: true, sizes: [(size.width, size.height, [frameRate])])])
        device.card = "Recorded Webcam"
        device.framePeriod = 1 / Double(frameRate)
        device.stampsWithRealTime = true
        // The reader is the feeder's own: opened again on its thread.
        let thread = Thread { [self] in feed() }
        thread.name = "opendock.recorded-webcam"
        thread.start()
    }

    /// Frames handed to the device so far.
    public var framesFed: Int { fed.withLock { $0 } }

    /// Stops feeding and waits for the feeder.
    public func stop() {
        stopped.withLock { $0 = true }
        done.wait()
    }

    private func feed() {
        defer { done.signal() }
        guard var reader = try? MJPEGAVIReader(path: path) else { return }
        while !stopped.withLock({ $0 }) {
            guard device.scriptedItemsLeft < 2 else {
                Thread.sleep(forTimeInterval: 0.002)
                continue
            }
            guard let jpeg = reader.nextPacket() else {
                // The end of the recording: from the start again.
                guard let again = try? MJPEGAVIReader(path: path) else { return }
                reader = again
                continue
            }
            device.append([.frame(jpeg)])
            fed.withLock { $0 += 1 }
        }
    }
}
