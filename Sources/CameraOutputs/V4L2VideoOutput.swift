import CV4L2
import Capture
import DockCore
import Foundation

/// A v4l2loopback device opened for writing: the virtual camera other programs (a meeting app,
/// OBS, a browser) read while OpenDock holds the real one. Frames go in with write(), packed
/// YUYV at one fixed size; the driver stamps and sequences them as it receives them, so they
/// reach readers paced by capture. Readers may come and go at any time without affecting it.
public final class V4L2VideoOutput {
    public let path: String
    public let card: String
    public let size: PixelSize
    public let frameRate: Double
    private let system: any VideoDeviceSystem
    private let fd: Int32
    private var closed = false

    /// The driver name v4l2loopback reports: any other output device is refused, since writing
    /// to a real display or encoder is not what `--video-out` is for.
    static let loopbackDriver = "v4l2 loopback"

    public init(
        path: String, size: PixelSize, frameRate: Double, system: any VideoDeviceSystem = LinuxVideoDeviceSystem()
    ) throws(VideoOutputError) {
        guard size.width % 2 == 0 else { throw .oddWidth(size) }
        guard system.exists(path) else { throw .noSuchDevice(path: path) }
        let fd: Int32
        switch system.openForWriting(path) {
        case .success(let opened): fd = opened
        case .failure(let e) where e == .noEntry || e == .noDevice: throw .noSuchDevice(path: path)
        case .failure(let e): throw .cannotOpen(path: path, e)
        }
        var cap = v4l2_capability()
        let queried = system.call(fd, CV4L2_VIDIOC_QUERYCAP, &cap)
        let (driver, card) = (cString(cap.driver), cString(cap.card))
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        guard queried == nil, driver == Self.loopbackDriver, caps & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0 else {
            system.close(fd)
            throw .notALoopback(path: path, driver: queried == nil ? driver : "", card: queried == nil ? card : "")
        }
        self.path = path
        self.card = card
        self.size = size
        self.frameRate = frameRate
        self.system = system
        self.fd = fd
        do throws(VideoOutputError) { try setFormat() } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        system.close(fd)
    }

    /// Bytes in one frame.
    public var frameLength: Int { size.width * size.height * 2 }

    public var summary: String {
        String(format: "%@ (%@): YUYV %@ at %.0f fps", path, card, size.description, frameRate)
    }

    /// Writes one packed frame whole.
    public func write(_ packed: [UInt8]) throws(VideoOutputError) {
        precondition(packed.count == frameLength, "a whole YUYV frame")
        let result = packed.withUnsafeBytes { system.write(fd, $0) }
        switch result {
        case .success(let count) where count == packed.count: return
        case .success: throw .writeFailed(path: path, Errno(EIO))
        case .failure(let e): throw .writeFailed(path: path, e)
        }
    }

    /// YUYV at `size`, and the rate readers are told; a device another writer already set to a
    /// different format is refused with what it offers.
    private func setFormat() throws(VideoOutputError) {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        format.fmt.pix.width = UInt32(size.width)
        format.fmt.pix.height = UInt32(size.height)
        format.fmt.pix.pixelformat = CV4L2_PIX_FMT_YUYV
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        format.fmt.pix.bytesperline = UInt32(size.width * 2)
        format.fmt.pix.sizeimage = UInt32(frameLength)
        format.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
        let asked = "YUYV \(size)"
        if let e = system.call(fd, CV4L2_VIDIOC_S_FMT, &format) {
            var current = v4l2_format()
            current.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
            let got = system.call(fd, CV4L2_VIDIOC_G_FMT, &current) == nil ? Self.name(of: current) : "\(e)"
            throw .formatRefused(path: path, asked: asked, got: got)
        }
        guard format.fmt.pix.pixelformat == CV4L2_PIX_FMT_YUYV, Int(format.fmt.pix.width) == size.width,
            Int(format.fmt.pix.height) == size.height
        else { throw .formatRefused(path: path, asked: asked, got: Self.name(of: format)) }
        // The rate readers are told (a loopback passes on whatever arrives; this is its label).
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        parameters.parm.output.timeperframe = v4l2_fract(
            numerator: 1000, denominator: UInt32(max(1, (frameRate * 1000).rounded())))
        _ = system.call(fd, CV4L2_VIDIOC_S_PARM, &parameters)
    }

    private static func name(of format: v4l2_format) -> String {
        "\(FourCC(format.fmt.pix.pixelformat)) \(format.fmt.pix.width)x\(format.fmt.pix.height)"
    }
}
