import ControlClient
import DockCore
import Foundation

extension DockAccessory {
    /// One camera frame from dockd, as JPEG (OpenDock's own: on Apple's systems a program
    /// captures with AVFoundation; here dockd holds the camera and passes its frames on).
    /// `stamp` is on this process's monotonic clock: the capture time as dockd reported it,
    /// so `track(_:cameraInformation:image:)` dates observations made on it rightly.
    /// A frame of dockd's camera: its JPEG, when it was captured (on this process's monotonic
    /// clock) and its size. `track(_:cameraInformation:image:)` takes it as it is, so a program
    /// that runs its own detector on the JPEG needs nothing but `import DockKit`.
    public struct CameraFrame: Sendable {
        public var jpeg: [UInt8]
        public var stamp: FrameStamp
        public var width: Int
        public var height: Int

        public init(jpeg: [UInt8], stamp: FrameStamp, width: Int, height: Int) {
            self.jpeg = jpeg
            self.stamp = stamp
            self.width = width
            self.height = height
        }

        /// The size a JPEG's start-of-frame segment gives; nil when it has none.
        static func jpegSize(_ jpeg: [UInt8]) -> PixelSize? {
            var i = 2
            while i + 9 < jpeg.count, jpeg[i] == 0xFF {
                let marker = jpeg[i + 1]
                let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
                // SOF0…SOF15, but for DHT (C4), JPG (C8) and DAC (CC).
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    let height = Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6])
                    let width = Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8])
                    return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
                }
                i += 2 + length
            }
            return nil
        }
    }

    public typealias CameraFrames = AsyncStream<CameraFrame>

    /// The frames of the camera dockd holds, clean (not annotated), at most `maximumRate` a
    /// second (1…30), newest first when the reader falls behind. A dock of the program's own
    /// has no camera: `notSupportedByDevice`.
    public func cameraFrames(maximumRate: Double = 15) throws -> CameraFrames {
        guard (1...30).contains(maximumRate) else { throw DockKitError.invalidParameter }
        guard case .remote(let dock) = backing else { throw DockKitError.notSupportedByDevice }
        return dock.cameraFrames(maximumRate: maximumRate)
    }
}

extension RemoteDock {
    /// dockd's `/v1/frames.mjpeg`, read on a thread of its own until the reader goes away.
    func cameraFrames(maximumRate: Double) -> DockAccessory.CameraFrames {
        let (stream, continuation) = DockAccessory.CameraFrames.makeStream(bufferingPolicy: .bufferingNewest(2))
        let ended = Protected(false)
        continuation.onTermination = { _ in ended.withLock { $0 = true } }
        let connection = connection
        let thread = Thread {
            let clock = SystemMonotonicClock()
            var parser = MultipartParser()
            let path = "/v1/frames.mjpeg?fps=\(Int(maximumRate))"
            _ = try? connection.follow(path, accept: "multipart/x-mixed-replace", keepGoing: { !ended.withLock { $0 } })
            {
                body in
                for part in parser.feed(body) {
                    let age = part.headers["x-frame-age"].flatMap(Double.init) ?? 0
                    let sequence = part.headers["x-frame-sequence"].flatMap { UInt64($0) } ?? 0
                    let stamp = FrameStamp(sequence: sequence, time: clock.now.advanced(bySeconds: -age))
                    let size =
                        part.headers["x-frame-size"].flatMap(PixelSize.init(parsing:))
                        ?? DockAccessory.CameraFrame.jpegSize(part.body)
                    continuation.yield(
                        DockAccessory.CameraFrame(
                            jpeg: part.body, stamp: stamp, width: size?.width ?? 0, height: size?.height ?? 0))
                }
                return parser.broken == nil && !ended.withLock { $0 }
            }
            continuation.finish()
        }
        thread.name = "opendock.frames"
        thread.start()
        return stream
    }
}

extension DockAccessory {
    /// `track` with one of dockd's camera frames as the image: its size and capture time date
    /// the observations as a `Frame` would.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation, image: CameraFrame)
        async throws
    {
        guard image.width > 0, image.height > 0 else { throw DockKitError.invalidParameter }
        try await track(
            observations, cameraInformation, size: PixelSize(width: image.width, height: image.height),
            captured: image.stamp.time)
    }
}
