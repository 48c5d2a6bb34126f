import CV4L2
import Capture
import DockCore
import Foundation

/// A v4l2loopback device in software, for machines without the kernel module (the benchmark's
/// output latency, the tests): answers QUERYCAP as the driver does (or as another driver, to be
/// refused), takes an output format like the driver (YUYV only, or locked to what another
/// writer set), copies each frame written as the driver does, and keeps the time each came and
/// the newest few frames.
public final class SimulatedLoopback: VideoDeviceSystem, @unchecked Sendable {
    public let path: String
    public var driver = "v4l2 loopback"
    public var card = "OpenDock camera"
    public var isOutput = true
    /// A format another writer set: S_FMT answers with it whatever is asked.
    public var lockedFormat: (fourcc: FourCC, width: Int, height: Int)?
    /// Writes fail with this once set (the module unloaded under the writer, say).
    public var failingWrites: Errno?

    private let lock = NSLock()
    private var format: (fourcc: FourCC, width: Int, height: Int)?
    private var frames: [(bytes: [UInt8], time: MonotonicInstant)] = []
    private var times: [MonotonicInstant] = []
    /// How many of the newest frames are kept whole.
    public let keptFrames: Int
    /// How many of the newest write times are kept (a soak writes for hours).
    public let keptWriteTimes: Int
    private var writes = 0
    private var descriptors: Set<Int32> = []
    private var timePerFrame: (UInt32, UInt32)?

    public init(path: String = "/dev/video9", keptFrames: Int = 8, keptWriteTimes: Int = 100_000) {
        self.path = path
        self.keptFrames = keptFrames
        self.keptWriteTimes = keptWriteTimes
    }

    /// The newest frames written (at most `keptFrames`), with the time each came.
    public var written: [(bytes: [UInt8], time: MonotonicInstant)] { lock.withLock { frames } }
    /// When each of the newest `keptWriteTimes` frames written came.
    public var writeTimes: [MonotonicInstant] { lock.withLock { Array(times.suffix(keptWriteTimes)) } }
    /// Every frame written, counted.
    public var writeCount: Int { lock.withLock { writes } }
    public var openDescriptorCount: Int { lock.withLock { descriptors.count } }
    public var outputFormat: (fourcc: FourCC, width: Int, height: Int)? { lock.withLock { format } }
    /// The output frame rate it was told, as numerator/denominator seconds per frame.
    public var frameInterval: (UInt32, UInt32)? { lock.withLock { timePerFrame } }

    public func open(_ path: String) -> Result<Int32, Errno> { openForWriting(path) }

    public func openForWriting(_ path: String) -> Result<Int32, Errno> {
        guard path == self.path else { return .failure(.noEntry) }
        return lock.withLock {
            let fd = Int32(200 + descriptors.count)
            descriptors.insert(fd)
            return .success(fd)
        }
    }

    public func close(_ fd: Int32) { _ = lock.withLock { descriptors.remove(fd) } }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        lock.withLock {
            if let failingWrites { return .failure(failingWrites) }
            guard descriptors.contains(fd), format != nil else { return .failure(.invalidArgument) }
            let now = SystemMonotonicClock().now
            frames.append((Array(bytes), now))
            if frames.count > keptFrames { frames.removeFirst() }
            times.append(now)
            // Trimmed in halves, so that a long run pays for the trim once per `keptWriteTimes` writes.
            if times.count >= 2 * keptWriteTimes { times.removeFirst(times.count - keptWriteTimes) }
            writes += 1
            return .success(bytes.count)
        }
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        lock.withLock {
            guard descriptors.contains(fd) else { return Errno(EBADF) }
            switch request {
            case CV4L2_VIDIOC_QUERYCAP:
                var cap = v4l2_capability()
                Self.copy(driver, into: &cap.driver)
                Self.copy(card, into: &cap.card)
                let kind = isOutput ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE
                cap.device_caps = UInt32(kind | V4L2_CAP_READWRITE | V4L2_CAP_STREAMING)
                cap.capabilities = cap.device_caps | UInt32(V4L2_CAP_DEVICE_CAPS)
                argument.storeBytes(of: cap, as: v4l2_capability.self)
            case CV4L2_VIDIOC_S_FMT, CV4L2_VIDIOC_G_FMT:
                var asked = argument.load(as: v4l2_format.self)
                guard asked.type == V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue else { return .invalidArgument }
                if request == CV4L2_VIDIOC_S_FMT {
                    // Like the driver: YUYV whatever is asked, unless a writer already fixed it.
                    format =
                        lockedFormat
                        ?? (FourCC("YUYV"), Int(asked.fmt.pix.width), Int(asked.fmt.pix.height))
                }
                guard let format else { return .invalidArgument }
                asked.fmt.pix.pixelformat = format.fourcc.rawValue
                asked.fmt.pix.width = UInt32(format.width)
                asked.fmt.pix.height = UInt32(format.height)
                argument.storeBytes(of: asked, as: v4l2_format.self)
            case CV4L2_VIDIOC_S_PARM:
                let parameters = argument.load(as: v4l2_streamparm.self)
                let interval = parameters.parm.output.timeperframe
                timePerFrame = (interval.numerator, interval.denominator)
            default:
                return .invalidArgument
            }
            return nil
        }
    }

    public func mmap(length: Int, fd: Int32, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno> {
        .failure(.invalidArgument)
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {}
    public func poll(_ fd: Int32, timeoutMilliseconds: Int32) -> PollOutcome { .timedOut }
    public func deviceNodes() -> [String] { [path] }
    public func stableNames() -> [(name: String, node: String)] { [] }
    public func exists(_ path: String) -> Bool { path == self.path }

    private static func copy<T>(_ text: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
    }
}
