import CV4L2
import Capture
import DockCore
import Foundation
import Glibc

/// A V4L2 camera in software for tests and benchmarks: answers the ioctls with the real `struct v4l2_*`
/// layouts, hands out real mmap-able memory, and serves frames from a script (real JPEG or
/// YUYV bytes, error-flagged buffers, lost sequence numbers). It can be unplugged and plugged
/// back, fail chosen calls with chosen errnos, and counts open descriptors and live mappings.
public final class ScriptedVideoDevice: VideoDeviceSystem, @unchecked Sendable {
    public struct Format {
        public var fourcc: FourCC
        public var description: String
        public var compressed: Bool
        public var sizes: [(width: Int, height: Int, rates: [Int])]

        public init(
            _ fourcc: FourCC, _ description: String, compressed: Bool = false,
            sizes: [(width: Int, height: Int, rates: [Int])]
        ) {
            self.fourcc = fourcc
            self.description = description
            self.compressed = compressed
            self.sizes = sizes
        }
    }

    public struct Control {
        public var id: UInt32
        public var name: String
        public var type: UInt32
        public var minimum: Int64
        public var maximum: Int64
        public var step: UInt64
        public var defaultValue: Int64
        public var menu: [String]

        public init(
            id: UInt32, name: String, type: UInt32 = V4L2_CTRL_TYPE_INTEGER.rawValue, minimum: Int64, maximum: Int64,
            step: UInt64 = 1, defaultValue: Int64, menu: [String] = []
        ) {
            self.id = id
            self.name = name
            self.type = type
            self.minimum = minimum
            self.maximum = maximum
            self.step = step
            self.defaultValue = defaultValue
            self.menu = menu
        }
    }

    public enum ScriptItem: Sendable {
        /// A good frame with these bytes.
        case frame([UInt8])
        /// A buffer the driver flags V4L2_BUF_FLAG_ERROR.
        case errorFrame([UInt8])
        /// The driver loses this many frames (sequence numbers skipped).
        case lost(Int)
        /// The camera is pulled out at this point of the stream.
        case unplug
    }

    public let path: String
    public let stableName: String
    public var card = "Scripted Camera"
    public var formats: [Format]
    public var controls: [Control]
    /// Frames delivered per poll while the script lasts (more than one makes a backlog).
    public var framesPerPoll = 1
    /// Nominal frame period for timestamps.
    public var framePeriod = 1.0 / 30

    private let lock = NSLock()
    private var script: [ScriptItem] = []
    private var present = true
    private static let firstDescriptor: Int32 = 100
    private var nextFD = firstDescriptor
    private var openFDs: Set<Int32> = []
    private var mappings: [UnsafeMutableRawPointer: Int] = [:]
    private var buffers: [UnsafeMutableRawPointer] = []
    private var bufferSize = 0
    private var queued: [Int] = []
    private var filled: [(index: Int, used: Int, flags: UInt32, sequence: UInt32, time: Double)] = []
    private var streaming = false
    private var sequence: UInt32 = 0
    private var current: (fourcc: FourCC, width: Int, height: Int)
    private var values: [UInt32: Int64] = [:]
    private var injected: [UInt: [Errno]] = [:]
    public private(set) var ioctlCount = 0
    /// Monotonic time of sequence 0, in seconds; frames follow at `framePeriod`.
    public var timeOrigin = 1000.0
    /// Stamp each frame with the real CLOCK_MONOTONIC time it was delivered, and deliver no
    /// faster than `framePeriod` (a poll waits for the next frame, up to its timeout), like a
    /// real camera: a reader cannot run through the script faster than the frame rate.
    public var stampsWithRealTime = false
    private var lastDelivery: Double?

    public init(
        path: String = "/dev/video0", stableName: String = "/dev/v4l/by-id/usb-Scripted_Camera-video-index0",
        formats: [Format], controls: [Control] = []
    ) {
        self.path = path
        self.stableName = stableName
        self.formats = formats
        self.controls = controls
        let first = formats[0]
        current = (first.fourcc, first.sizes[0].width, first.sizes[0].height)
        for c in controls { values[c.id] = c.defaultValue }
    }

    deinit { for b in buffers { b.deallocate() } }

    // MARK: Driving the device

    public func append(_ items: [ScriptItem]) { lock.withLock { script += items } }
    public func unplug() { lock.withLock { present = false } }
    public func replug() { lock.withLock { present = true } }
    public var isPresent: Bool { lock.withLock { present } }
    /// Items of the script not yet delivered.
    public var scriptedItemsLeft: Int { lock.withLock { script.count } }
    /// Descriptors opened so far, closed ones included.
    public var opens: Int { lock.withLock { Int(nextFD - Self.firstDescriptor) } }

    /// Plugs the camera back in `delay` seconds after the reader has met a scripted `.unplug`,
    /// then scripts `items` for the new connection. Waiting for the unplug to be seen, rather
    /// than for a fixed time, keeps a slow reader from meeting the unplug after the replug.
    public func replug(after delay: Double, then items: [ScriptItem]) {
        Thread.detachNewThread { [self] in
            while isPresent { Thread.sleep(forTimeInterval: 0.001) }
            Thread.sleep(forTimeInterval: delay)
            replug()
            append(items)
        }
    }

    /// Scripts `items` once the reader has opened the device again (after a stall, say).
    public func append(_ items: [ScriptItem], afterOpensReach count: Int) {
        Thread.detachNewThread { [self] in
            while opens < count { Thread.sleep(forTimeInterval: 0.001) }
            append(items)
        }
    }
    /// The next calls of `request` fail with these errnos, in order.
    public func inject(_ errors: [Errno], into request: UInt) {
        lock.withLock { injected[request, default: []] += errors }
    }

    public var openDescriptorCount: Int { lock.withLock { openFDs.count } }
    public var liveMappingCount: Int { lock.withLock { mappings.count } }
    /// Buffers queued for the driver to fill.
    public var queuedBufferCount: Int { lock.withLock { queued.count } }
    public var isStreaming: Bool { lock.withLock { streaming } }
    public func value(of id: UInt32) -> Int64? { lock.withLock { values[id] } }

    // MARK: VideoDeviceSystem

    public func open(_ path: String) -> Result<Int32, Errno> {
        lock.withLock {
            guard path == self.path || path == stableName else { return .failure(.noEntry) }
            guard present else { return .failure(.noEntry) }
            let fd = nextFD
            nextFD += 1
            openFDs.insert(fd)
            return .success(fd)
        }
    }

    public func close(_ fd: Int32) {
        lock.withLock {
            openFDs.remove(fd)
            if openFDs.isEmpty { resetStream() }
        }
    }

    public func mmap(length: Int, fd: Int32, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno> {
        lock.withLock {
            guard present else { return .failure(.noDevice) }
            let index = Int(offset) / Self.offsetStride
            guard openFDs.contains(fd), index < buffers.count, length <= bufferSize else {
                return .failure(.invalidArgument)
            }
            mappings[buffers[index]] = length
            return .success(buffers[index])
        }
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        _ = lock.withLock { mappings.removeValue(forKey: address) }
    }

    public func poll(_ fd: Int32, timeoutMilliseconds: Int32) -> PollOutcome {
        if stampsWithRealTime && timeoutMilliseconds != 0 {
            let wait = lock.withLock { () -> Double in
                guard filled.isEmpty, let last = lastDelivery else { return 0 }
                return last + framePeriod - SystemMonotonicClock().now.seconds
            }
            if wait > 0 {
                let limit = timeoutMilliseconds < 0 ? wait : min(wait, Double(timeoutMilliseconds) / 1000)
                Thread.sleep(forTimeInterval: limit)
                if limit < wait { return .timedOut }
            }
        }
        return lock.withLock {
            guard present else { return .hangUp }
            guard streaming else { return .timedOut }
            // A poll that does not wait lets no time pass: it only reports buffers already filled.
            if timeoutMilliseconds == 0 { return filled.isEmpty ? .timedOut : .readable }
            var delivered = 0
            while delivered < framesPerPoll, !queued.isEmpty, let item = script.first {
                script.removeFirst()
                switch item {
                case .frame(let bytes):
                    deliver(bytes, flags: 0)
                    delivered += 1
                case .errorFrame(let bytes):
                    deliver(bytes, flags: UInt32(V4L2_BUF_FLAG_ERROR))
                    delivered += 1
                case .lost(let n): sequence &+= UInt32(n)
                case .unplug:
                    present = false
                    return .hangUp
                }
            }
            return filled.isEmpty ? .timedOut : .readable
        }
    }

    public func deviceNodes() -> [String] { lock.withLock { present ? [path] : [] } }
    public func stableNames() -> [(name: String, node: String)] {
        lock.withLock { present ? [(stableName, path)] : [] }
    }
    public func exists(_ path: String) -> Bool {
        lock.withLock { present && (path == self.path || path == stableName) }
    }

    public func openForWriting(_ path: String) -> Result<Int32, Errno> { open(path) }

    /// A camera takes no frames in.
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> { .failure(.invalidArgument) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        lock.withLock {
            ioctlCount += 1
            if var errors = injected[request], !errors.isEmpty {
                let e = errors.removeFirst()
                injected[request] = errors
                return e
            }
            guard openFDs.contains(fd) else { return Errno(EBADF) }
            guard present else { return .noDevice }
            return answer(request, argument)
        }
    }

    // MARK: The driver

    static let offsetStride = 1 << 22

    private func deliver(_ bytes: [UInt8], flags: UInt32) {
        let index = queued.removeFirst()
        let count = min(bytes.count, bufferSize)
        bytes.withUnsafeBytes { buffers[index].copyMemory(from: $0.baseAddress!, byteCount: count) }
        let time = stampsWithRealTime ? SystemMonotonicClock().now.seconds : timeOrigin + Double(sequence) * framePeriod
        lastDelivery = time
        filled.append((index, count, flags, sequence, time))
        sequence &+= 1
    }

    private func resetStream() {
        streaming = false
        queued.removeAll()
        filled.removeAll()
    }

    private func frameSize(_ fourcc: FourCC, _ width: Int, _ height: Int) -> (bytesPerLine: Int, size: Int) {
        switch fourcc {
        case .yuyv: (width * 2, width * height * 2)
        case .bgr24, .rgb24: (width * 3, width * height * 3)
        case .grey: (width, width * height)
        case .nv12, .yuv420: (width, width * height * 3 / 2)
        default: (0, width * height * 2)  // compressed: an upper bound
        }
    }

    private func answer(_ request: UInt, _ p: UnsafeMutableRawPointer) -> Errno? {
        switch request {
        case CV4L2_VIDIOC_QUERYCAP, CV4L2_VIDIOC_ENUM_FMT, CV4L2_VIDIOC_ENUM_FRAMESIZES,
            CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, CV4L2_VIDIOC_S_FMT, CV4L2_VIDIOC_G_FMT, CV4L2_VIDIOC_S_PARM,
            CV4L2_VIDIOC_G_PARM:
            return answerFormat(request, p)
        case CV4L2_VIDIOC_REQBUFS, CV4L2_VIDIOC_QUERYBUF, CV4L2_VIDIOC_QBUF, CV4L2_VIDIOC_DQBUF,
            CV4L2_VIDIOC_STREAMON, CV4L2_VIDIOC_STREAMOFF:
            return answerStreaming(request, p)
        default:
            return answerControl(request, p)
        }
    }

    /// What the device is and the formats, sizes and rates it offers.
    private func answerFormat(_ request: UInt, _ p: UnsafeMutableRawPointer) -> Errno? {
        switch request {
        case CV4L2_VIDIOC_QUERYCAP:
            var cap = v4l2_capability()
            Self.copy("scripted", into: &cap.driver)
            Self.copy(card, into: &cap.card)
            Self.copy("usb-0000:00:14.0-1", into: &cap.bus_info)
            cap.capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING) | UInt32(V4L2_CAP_DEVICE_CAPS)
            cap.device_caps = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
            p.storeBytes(of: cap, as: v4l2_capability.self)
        case CV4L2_VIDIOC_ENUM_FMT:
            var desc = p.load(as: v4l2_fmtdesc.self)
            guard Int(desc.index) < formats.count else { return .invalidArgument }
            let f = formats[Int(desc.index)]
            desc.pixelformat = f.fourcc.rawValue
            desc.flags = f.compressed ? UInt32(V4L2_FMT_FLAG_COMPRESSED) : 0
            Self.copy(f.description, into: &desc.description)
            p.storeBytes(of: desc, as: v4l2_fmtdesc.self)
        case CV4L2_VIDIOC_ENUM_FRAMESIZES:
            var size = p.load(as: v4l2_frmsizeenum.self)
            guard let f = formats.first(where: { $0.fourcc.rawValue == size.pixel_format }),
                Int(size.index) < f.sizes.count
            else {
                return .invalidArgument
            }
            size.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
            size.discrete = v4l2_frmsize_discrete(
                width: UInt32(f.sizes[Int(size.index)].width), height: UInt32(f.sizes[Int(size.index)].height))
            p.storeBytes(of: size, as: v4l2_frmsizeenum.self)
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS:
            var interval = p.load(as: v4l2_frmivalenum.self)
            guard let f = formats.first(where: { $0.fourcc.rawValue == interval.pixel_format }),
                let s = f.sizes.first(where: { $0.width == Int(interval.width) && $0.height == Int(interval.height) }),
                Int(interval.index) < s.rates.count
            else { return .invalidArgument }
            interval.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
            interval.discrete = v4l2_fract(numerator: 1, denominator: UInt32(s.rates[Int(interval.index)]))
            p.storeBytes(of: interval, as: v4l2_frmivalenum.self)
        case CV4L2_VIDIOC_S_FMT, CV4L2_VIDIOC_G_FMT:
            var format = p.load(as: v4l2_format.self)
            if request == CV4L2_VIDIOC_S_FMT {
                guard !streaming else { return Errno(EBUSY) }
                // Like a driver: an unknown format or size becomes the nearest it has.
                let f = formats.first { $0.fourcc.rawValue == format.fmt.pix.pixelformat } ?? formats[0]
                let s =
                    f.sizes.first { $0.width == Int(format.fmt.pix.width) && $0.height == Int(format.fmt.pix.height) }
                    ?? f.sizes[0]
                current = (f.fourcc, s.width, s.height)
            }
            let layout = frameSize(current.fourcc, current.width, current.height)
            format.fmt.pix.pixelformat = current.fourcc.rawValue
            format.fmt.pix.width = UInt32(current.width)
            format.fmt.pix.height = UInt32(current.height)
            format.fmt.pix.bytesperline = UInt32(layout.bytesPerLine)
            format.fmt.pix.sizeimage = UInt32(layout.size)
            format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
            p.storeBytes(of: format, as: v4l2_format.self)
        case CV4L2_VIDIOC_S_PARM, CV4L2_VIDIOC_G_PARM:
            var parm = p.load(as: v4l2_streamparm.self)
            parm.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32((1 / framePeriod).rounded()))
            p.storeBytes(of: parm, as: v4l2_streamparm.self)
        default:
            return Errno(ENOTTY)
        }
        return nil
    }

    /// Buffers and streaming.
    private func answerStreaming(_ request: UInt, _ p: UnsafeMutableRawPointer) -> Errno? {
        switch request {
        case CV4L2_VIDIOC_REQBUFS:
            var req = p.load(as: v4l2_requestbuffers.self)
            guard !streaming else { return Errno(EBUSY) }
            guard mappings.isEmpty || req.count == 0 else { return Errno(EBUSY) }
            for b in buffers { b.deallocate() }
            buffers.removeAll()
            queued.removeAll()
            filled.removeAll()
            bufferSize = max(frameSize(current.fourcc, current.width, current.height).size, 1 << 16)
            for _ in 0..<min(Int(req.count), 8) {
                buffers.append(UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 64))
            }
            req.count = UInt32(buffers.count)
            p.storeBytes(of: req, as: v4l2_requestbuffers.self)
        case CV4L2_VIDIOC_QUERYBUF:
            var buffer = p.load(as: v4l2_buffer.self)
            guard Int(buffer.index) < buffers.count else { return .invalidArgument }
            buffer.length = UInt32(bufferSize)
            buffer.m.offset = UInt32(Int(buffer.index) * Self.offsetStride)
            p.storeBytes(of: buffer, as: v4l2_buffer.self)
        case CV4L2_VIDIOC_QBUF:
            let buffer = p.load(as: v4l2_buffer.self)
            let index = Int(buffer.index)
            guard index < buffers.count, !queued.contains(index), !filled.contains(where: { $0.index == index }) else {
                return .invalidArgument
            }
            queued.append(index)
        case CV4L2_VIDIOC_DQBUF:
            guard !filled.isEmpty else { return .wouldBlock }
            let f = filled.removeFirst()
            var buffer = p.load(as: v4l2_buffer.self)
            buffer.index = UInt32(f.index)
            buffer.bytesused = UInt32(f.used)
            buffer.flags = f.flags | UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
            buffer.sequence = f.sequence
            let t = f.time
            buffer.timestamp = timeval(tv_sec: Int(t), tv_usec: Int(((t - t.rounded(.down)) * 1e6).rounded()))
            p.storeBytes(of: buffer, as: v4l2_buffer.self)
        case CV4L2_VIDIOC_STREAMON:
            streaming = true
        case CV4L2_VIDIOC_STREAMOFF:
            resetStream()
        default:
            return Errno(ENOTTY)
        }
        return nil
    }

    /// Controls and their menus.
    private func answerControl(_ request: UInt, _ p: UnsafeMutableRawPointer) -> Errno? {
        switch request {
        case CV4L2_VIDIOC_QUERY_EXT_CTRL:
            var query = p.load(as: v4l2_query_ext_ctrl.self)
            let wanted = query.id
            let control: Control?
            if wanted & CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE != 0 {
                let after = wanted & ~(CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE | CV4L2_CTRL_FLAG_NEXT_COMPOUND_VALUE)
                control = controls.filter { $0.id > after }.min { $0.id < $1.id }
            } else {
                control = controls.first { $0.id == wanted }
            }
            guard let c = control else { return .invalidArgument }
            query = v4l2_query_ext_ctrl()
            query.id = c.id
            query.type = c.type
            Self.copy(c.name, into: &query.name)
            query.minimum = c.minimum
            query.maximum = c.maximum
            query.step = c.step
            query.default_value = c.defaultValue
            p.storeBytes(of: query, as: v4l2_query_ext_ctrl.self)
        case CV4L2_VIDIOC_QUERYMENU:
            var item = p.load(as: v4l2_querymenu.self)
            let index = Int(item.index)
            guard let c = controls.first(where: { $0.id == item.id }), index < c.menu.count else {
                return .invalidArgument
            }
            Self.copy(c.menu[index], into: &item.name)
            p.storeBytes(of: item, as: v4l2_querymenu.self)
        case CV4L2_VIDIOC_G_CTRL:
            var control = p.load(as: v4l2_control.self)
            guard let v = values[control.id] else { return .invalidArgument }
            control.value = Int32(clamping: v)
            p.storeBytes(of: control, as: v4l2_control.self)
        case CV4L2_VIDIOC_S_CTRL:
            let control = p.load(as: v4l2_control.self)
            guard let c = controls.first(where: { $0.id == control.id }) else { return .invalidArgument }
            guard (c.minimum...c.maximum).contains(Int64(control.value)) else { return Errno(ERANGE) }
            values[control.id] = Int64(control.value)
        default:
            return Errno(ENOTTY)
        }
        return nil
    }

    private static func copy<T>(_ text: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            raw.copyBytes(from: Array(text.utf8.prefix(raw.count - 1)))
        }
    }
}
