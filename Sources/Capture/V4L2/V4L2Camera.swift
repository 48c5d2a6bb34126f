import CV4L2
import CVision
import DockCore
import Foundation

/// What happened to the frames a camera produced.
public struct CaptureCounters: Sendable, Hashable {
    /// Frames handed to the caller.
    public var delivered = 0
    /// Older frames skipped because a newer one was already waiting (always the newest).
    public var skippedForNewer = 0
    /// Buffers the driver flagged V4L2_BUF_FLAG_ERROR.
    public var errorFrames = 0
    /// Frames whose data did not decode (corrupt or truncated JPEG, short buffer).
    public var corruptFrames = 0
    /// Frames the driver never delivered, from gaps in its sequence numbers.
    public var sequenceGaps = 0
    /// Calls that returned EIO and were retried.
    public var ioErrors = 0
    /// Frames left undecoded because the caller wants fewer a second than the camera sends.
    public var thinned = 0
    /// Raw frames whose full-size picture had to be copied out of the driver's buffer, because
    /// leasing that buffer would have left the driver fewer than two to fill.
    public var detailCopies = 0

    public init() {}

    /// Adds another connection's counts (a camera that came back counts on).
    public mutating func add(_ other: CaptureCounters) {
        delivered += other.delivered
        skippedForNewer += other.skippedForNewer
        errorFrames += other.errorFrames
        corruptFrames += other.corruptFrames
        sequenceGaps += other.sequenceGaps
        ioErrors += other.ioErrors
        thinned += other.thinned
        detailCopies += other.detailCopies
    }

    /// The undelivered frames by cause, in the pipeline's terms.
    public var sourceCounts: SourceCounts {
        SourceCounts(
            lostInDriver: sequenceGaps, skippedForNewer: skippedForNewer, damaged: corruptFrames,
            errorFlagged: errorFrames, thinned: thinned)
    }
}

/// A V4L2 camera streaming through mmap buffers: format negotiation, poll with a timeout,
/// always the newest frame, error frames and corrupt JPEGs dropped and counted, driver sequence
/// gaps counted, buffer timestamps (CLOCK_MONOTONIC) carried in each frame's stamp.
/// Not thread-safe: one capture thread owns it.
public final class V4L2Camera: FrameSource {
    public let path: String
    public let device: V4L2Device
    public let choice: FormatChoice
    /// What the driver agreed to: format, size, bytes per line.
    public let format: FourCC
    public let captureSize: PixelSize
    public let bytesPerLine: Int
    public let nominalFrameRate: Double
    public let request: CaptureRequest
    public private(set) var counters = CaptureCounters()
    private let clock: any MonotonicClock
    private let decoder = JPEGDecoder()
    private var pool: CaptureBufferPool?
    private var streaming = false
    private var closed = false
    private var lastSequence: UInt32?
    /// Which frames `CaptureRequest.deliveredRate` lets through.
    private var thinner: FrameThinner?

    public init(
        path: String, request: CaptureRequest = CaptureRequest(),
        system: any VideoDeviceSystem = LinuxVideoDeviceSystem(),
        clock: any MonotonicClock = SystemMonotonicClock()
    ) throws(CaptureError) {
        self.path = path
        self.request = request
        thinner = request.deliveredRate.flatMap { $0 > 0 ? FrameThinner(rate: $0) : nil }
        self.clock = clock
        let device = try V4L2Device(path: path, system: system)
        self.device = device
        guard device.canCapture else { throw .notACaptureDevice(path: path) }
        let formats = try device.formats()
        guard let choice = FormatNegotiation.choose(from: formats, for: request) else {
            throw .noUsableFormat(path: path, offered: formats.map(\.fourcc.description))
        }
        self.choice = choice
        let set = try device.setFormat(choice.fourcc, width: choice.width, height: choice.height)
        guard set.fourcc.isJPEG || FormatNegotiation.decodable.contains(set.fourcc) else {
            throw .noUsableFormat(path: path, offered: [set.fourcc.description])
        }
        format = set.fourcc
        captureSize = PixelSize(width: set.width, height: set.height)
        bytesPerLine = set.bytesPerLine
        nominalFrameRate = device.setFrameRate(choice.frameRate) ?? choice.frameRate
        do {
            try startStreaming()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    public var summary: String {
        "\(path) (\(device.card), \(format) \(captureSize) @ \(String(format: "%.1f", nominalFrameRate)) fps, decoded at \(request.decodeScale))"
    }

    /// The size of the frames handed out (after DCT scaling).
    public var size: PixelSize {
        PixelSize(
            width: request.decodeScale.scaled(captureSize.width), height: request.decodeScale.scaled(captureSize.height)
        )
    }

    public var droppedFrames: Int { counters.errorFrames + counters.corruptFrames }
    public var counts: SourceCounts { counters.sourceCounts }

    /// The driver's buffers this camera still uses; zero once closed (frames that lease one keep
    /// its mapping until they go).
    public var mappedBufferCount: Int { pool?.count ?? 0 }

    /// Buffers lent to frames for their full-size picture and not yet handed back.
    public var leasedBufferCount: Int { pool?.leasedCount ?? 0 }

    /// Driver buffers always left to the driver: one being filled and one ready, so leasing
    /// never makes the camera wait.
    static let buffersKeptByTheDriver = 2

    private func startStreaming() throws(CaptureError) {
        let system = device.system
        let fd = device.fd
        var req = v4l2_requestbuffers()
        req.count = UInt32(request.bufferCount)
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        req.memory = V4L2_MEMORY_MMAP.rawValue
        if let e = system.call(fd, CV4L2_VIDIOC_REQBUFS, &req) { throw device.fail("VIDIOC_REQBUFS", e) }
        guard req.count > 0 else { throw .call(path: path, request: "VIDIOC_REQBUFS", .io) }
        var mappings: [CaptureBufferPool.Mapping] = []
        // Whatever was mapped is unmapped with the pool, also when a later call fails.
        defer { pool = CaptureBufferPool(mappings: mappings, system: system) }
        for index in 0..<req.count {
            var buffer = Self.emptyBuffer()
            buffer.index = index
            if let e = system.call(fd, CV4L2_VIDIOC_QUERYBUF, &buffer) { throw device.fail("VIDIOC_QUERYBUF", e) }
            switch system.mmap(length: Int(buffer.length), fd: fd, offset: Int64(buffer.m.offset)) {
            case .success(let address): mappings.append(.init(address: address, length: Int(buffer.length)))
            case .failure(let e): throw device.fail("mmap", e)
            }
            if let e = system.call(fd, CV4L2_VIDIOC_QBUF, &buffer) { throw device.fail("VIDIOC_QBUF", e) }
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        if let e = system.call(fd, CV4L2_VIDIOC_STREAMON, &type) { throw device.fail("VIDIOC_STREAMON", e) }
        streaming = true
    }

    /// Stops streaming, unmaps every buffer and closes the device. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        let system = device.system
        let fd = device.fd
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = system.call(fd, CV4L2_VIDIOC_STREAMOFF, &type)
            streaming = false
        }
        // Unmapped now unless a frame still leases a buffer; then with the last such frame.
        let released = pool.map { $0.leasedCount == 0 } ?? false
        pool = nil
        if released {
            var req = v4l2_requestbuffers()
            req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            req.memory = V4L2_MEMORY_MMAP.rawValue
            _ = system.call(fd, CV4L2_VIDIOC_REQBUFS, &req)
        }
        device.close()
    }

    public func nextFrame() throws(FrameSourceError) -> Frame? {
        do {
            return try nextCapturedFrame()
        } catch {
            throw error.frameSourceError
        }
    }

    private func nextCapturedFrame() throws(CaptureError) -> Frame {
        guard !closed else { throw .disconnected(path: path) }
        let system = device.system
        let fd = device.fd
        let started = clock.now
        while true {
            // However the driver answers (timeouts, or "readable" with nothing to dequeue), no
            // frame for the stall timeout is a stall.
            if clock.now.seconds(since: started) >= request.stallTimeout {
                throw .stalled(path: path, seconds: request.stallTimeout)
            }
            requeueReturnedBuffers()
            switch system.poll(fd, timeoutMilliseconds: 200) {
            case .hangUp: throw .disconnected(path: path)
            case .interrupted, .timedOut: continue
            case .readable: break
            }
            guard var buffer = try dequeueNewest() else { continue }
            let stamp = FrameStamp(sequence: UInt64(buffer.sequence), time: timestamp(of: buffer))
            if thinner?.takes(stamp.time) == false {
                requeue(&buffer)
                counters.thinned += 1
                continue
            }
            guard let (frame, leased) = decode(buffer, stamp: stamp) else {
                requeue(&buffer)
                counters.corruptFrames += 1
                continue
            }
            // A leased buffer goes back to the driver when its frame is gone.
            if !leased { requeue(&buffer) }
            counters.delivered += 1
            return frame
        }
    }

    /// Takes every filled buffer off the queue and keeps the newest good one; the others go
    /// straight back. A buffer the driver flagged as an error counts as one whether or not a newer
    /// buffer came with it.
    /// Asks poll (without waiting) before each further dequeue rather than dequeuing until
    /// EAGAIN: libv4l2 prints a line on stderr for every EAGAIN.
    private func dequeueNewest() throws(CaptureError) -> v4l2_buffer? {
        let system = device.system
        let fd = device.fd
        var newest: v4l2_buffer?
        repeat {
            var buffer = Self.emptyBuffer()
            if let e = system.call(fd, CV4L2_VIDIOC_DQBUF, &buffer) {
                if e == .wouldBlock { break }
                if e == .io {
                    // The driver's "temporary problem": the buffer comes back with an error flag
                    // or not at all; either way try again at the next poll.
                    counters.ioErrors += 1
                    break
                }
                if let newest {
                    var back = newest
                    requeue(&back)
                }
                throw device.fail("VIDIOC_DQBUF", e)
            }
            if let last = lastSequence, buffer.sequence > last &+ 1 {
                counters.sequenceGaps += Int(buffer.sequence - last - 1)
            }
            lastSequence = buffer.sequence
            if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
                counters.errorFrames += 1
                requeue(&buffer)
                continue
            }
            if var older = newest {
                counters.skippedForNewer += 1
                requeue(&older)
            }
            newest = buffer
        } while system.poll(fd, timeoutMilliseconds: 0) == .readable
        return newest
    }

    /// Queues again the buffers whose frames have let go of them.
    private func requeueReturnedBuffers() {
        guard let pool else { return }
        for index in pool.takeReturned() {
            var buffer = Self.emptyBuffer()
            buffer.index = UInt32(index)
            requeue(&buffer)
        }
    }

    private func requeue(_ buffer: inout v4l2_buffer) {
        _ = device.system.call(device.fd, CV4L2_VIDIOC_QBUF, &buffer)
    }

    /// The driver's capture time when it is CLOCK_MONOTONIC, otherwise the time of dequeue.
    private func timestamp(of buffer: v4l2_buffer) -> MonotonicInstant {
        let kind = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK)
        let t = buffer.timestamp
        guard kind == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC), t.tv_sec > 0 || t.tv_usec > 0 else { return clock.now }
        return MonotonicInstant(nanoseconds: Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1000)
    }

    /// The frame made from a dequeued buffer, and whether the frame now leases that buffer.
    private func decode(_ buffer: v4l2_buffer, stamp: FrameStamp) -> (Frame, leased: Bool)? {
        guard let pool else { return nil }
        let mapped = pool.mappings[Int(buffer.index)]
        let used = min(Int(buffer.bytesused), mapped.length)
        if format.isJPEG {
            // The JPEG kept for regions is small: copied, so the buffer goes straight back.
            let frame = try? decoder.decode(
                UnsafeRawBufferPointer(start: mapped.address, count: used), scale: request.decodeScale,
                format: request.pixelFormat, stamp: stamp, keepingDetail: request.keepDetail)
            return frame.map { ($0, false) }
        }
        let layout: Int32 =
            switch format {
            case .yuyv: Int32(CVISION_RAW_YUYV)
            case .nv12: Int32(CVISION_RAW_NV12)
            case .yuv420: Int32(CVISION_RAW_I420)
            case .rgb24: Int32(CVISION_RAW_RGB24)
            case .bgr24: Int32(CVISION_RAW_BGR24)
            default: Int32(CVISION_RAW_GREY)
            }
        let out = size
        var frame = Frame(stamp: stamp, width: out.width, height: out.height, format: request.pixelFormat)
        let (w, h, stride) = (Int32(captureSize.width), Int32(captureSize.height), bytesPerLine)
        let rowBytes = frame.bytesPerRow
        let status = frame.pixels.withUnsafeMutableBufferPointer { pixels in
            cvision_convert_raw(
                layout, mapped.address.assumingMemoryBound(to: UInt8.self), used, w, h, stride,
                cvision_view(
                    data: pixels.baseAddress, width: Int32(out.width), height: Int32(out.height),
                    channels: Int32(request.pixelFormat.channels), stride: rowBytes))
        }
        guard status == 0 else { return nil }
        guard request.keepDetail && out != captureSize else { return (frame, false) }
        let picture = RawFrameDetail.Picture(layout: layout, fullSize: captureSize, stride: stride)
        // Less this buffer, which is out of the driver's queue now.
        if pool.count - pool.awayFromTheDriver - 1 >= Self.buffersKeptByTheDriver {
            frame.detail = RawFrameDetail(leasing: pool.lease(Int(buffer.index), count: used), picture)
            return (frame, true)
        }
        counters.detailCopies += 1
        frame.detail = RawFrameDetail(copying: UnsafeRawBufferPointer(start: mapped.address, count: used), picture)
        return (frame, false)
    }

    static func emptyBuffer() -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
