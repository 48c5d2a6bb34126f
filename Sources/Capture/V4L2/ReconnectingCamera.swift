import CV4L2
import DockCore
import Foundation
import Synchronization

public enum CameraEvent: Sendable, Equatable {
    /// The camera is streaming (first open or back after a disconnect).
    case docked(String)
    /// It went away or stalled; OpenDock waits for it to come back.
    case undocked(String)
}

/// A camera that survives being unplugged: on ENODEV, POLLHUP or a stall it closes every
/// descriptor and mapping, reports `undocked`, watches for the device (by its stable name when
/// given one) every `retryInterval` and reopens it, reporting `docked`. The service never restarts.
public final class ReconnectingCamera: FrameSource {
    public let path: String
    public let request: CaptureRequest
    private let system: any VideoDeviceSystem
    private let clock: any MonotonicClock
    private let retryInterval: Double
    private let onEvent: @Sendable (CameraEvent) -> Void
    /// Set from any thread to end a wait for the camera.
    public let cancellation = CaptureCancellation()
    private var camera: V4L2Camera?
    private var retired = CaptureCounters()
    private let intrinsics: CameraIntrinsicsSource
    private var framesSinceZoomCheck = 0
    /// Whether the intrinsics follow the camera's zoom_absolute; not when the engine drives the
    /// zoom, which then stamps each frame with the lens's own factor.
    private let followsZoomControl: Bool
    /// The current camera's intrinsics for its delivered frames, updated on (re)connect and when
    /// the zoom changes (checked once a second); readable from any thread.
    public let information = SharedCameraInformation()
    public private(set) var disconnects = 0
    public private(set) var reconnects = 0

    /// Opens the camera now; a camera that is absent or unusable at start is an error.
    public init(
        path: String, request: CaptureRequest = CaptureRequest(),
        system: any VideoDeviceSystem = LinuxVideoDeviceSystem(),
        clock: any MonotonicClock = SystemMonotonicClock(), retryInterval: Double = 0.1,
        intrinsics: CameraIntrinsicsSource = CameraIntrinsicsSource(), followsZoomControl: Bool = true,
        onEvent: @escaping @Sendable (CameraEvent) -> Void = { _ in }
    ) throws(CaptureError) {
        self.path = path
        self.request = request
        self.system = system
        self.clock = clock
        self.retryInterval = retryInterval
        self.onEvent = onEvent
        self.intrinsics = intrinsics
        self.followsZoomControl = followsZoomControl
        let camera = try V4L2Camera(path: path, request: request, system: system, clock: clock)
        self.camera = camera
        updateInformation(camera)
        onEvent(.docked(camera.summary))
    }

    deinit { camera?.close() }

    public var summary: String { camera?.summary ?? "\(path) (waiting for the camera)" }
    public var size: PixelSize { camera?.size ?? request.size }
    /// The camera's own picture size, before decoding shrinks it.
    public var pictureSize: PixelSize { camera?.captureSize ?? request.size }
    public var nominalFrameRate: Double { camera?.nominalFrameRate ?? request.frameRate }
    public var isConnected: Bool { camera != nil }

    /// Counters summed over every connection.
    public var counters: CaptureCounters {
        var total = retired
        if let c = camera?.counters { total.add(c) }
        return total
    }

    public var droppedFrames: Int { counters.errorFrames + counters.corruptFrames }
    public var counts: SourceCounts { counters.sourceCounts }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        while !cancellation.isCancelled {
            guard let camera else {
                reopen()
                continue
            }
            do {
                guard var frame = try camera.nextFrame() else { return nil }
                framesSinceZoomCheck += 1
                if framesSinceZoomCheck >= Int(max(1, camera.nominalFrameRate)) { updateInformation(camera) }
                frame.camera =
                    information.current.flatMap { $0.referenceDimensions == frame.size ? $0 : nil }
                    ?? intrinsics.cameraInformation(size: frame.size)
                return frame
            } catch  where error.kind == .disconnected || error.kind == .timeout {
                retire(camera)
                disconnects += 1
                onEvent(.undocked(error.message))
            }
        }
        return nil
    }

    /// Recomputes the intrinsics from the delivered size and the zoom control, if there is one.
    private func updateInformation(_ camera: V4L2Camera) {
        framesSinceZoomCheck = 0
        var zoom: (Int64, Int64)?
        if followsZoomControl, let control = try? camera.device.control(named: "zoom_absolute"),
            let value = control.value
        {
            zoom = (value, control.minimum)
        }
        information.set(intrinsics.cameraInformation(size: camera.size, zoom: zoom))
    }

    private func retire(_ camera: V4L2Camera) {
        retired = counters
        camera.close()
        self.camera = nil
    }

    /// Waits for the device node to exist, then opens it; returns after one attempt.
    private func reopen() {
        Thread.sleep(forTimeInterval: retryInterval)
        guard system.exists(path) else { return }
        if let camera = try? V4L2Camera(path: path, request: request, system: system, clock: clock) {
            self.camera = camera
            updateInformation(camera)
            reconnects += 1
            onEvent(.docked(camera.summary))
        }
    }
}

/// Ends a capture loop from another thread: a waiting `nextFrame` returns nil at its next check.
public final class CaptureCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func cancel() { flag.store(true, ordering: .releasing) }
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

/// The live camera's `CameraInformation`, written by the capture thread, read by the others.
public final class SharedCameraInformation: Sendable {
    private let value = Protected<CameraInformation?>(nil)
    public init() {}
    public func set(_ information: CameraInformation) { value.withLock { $0 = information } }
    public var current: CameraInformation? { value.withLock { $0 } }
}
