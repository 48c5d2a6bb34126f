import CV4L2
import DockCore
import Foundation

/// One open V4L2 device node: capabilities, formats, controls. Owns its file descriptor.
public final class V4L2Device {
    public let path: String
    public let system: any VideoDeviceSystem
    public let fd: Int32
    public let card: String
    public let driver: String
    public let busInfo: String
    public let capabilities: UInt32
    private var closed = false

    public init(path: String, system: any VideoDeviceSystem) throws(CaptureError) {
        self.path = path
        self.system = system
        switch system.open(path) {
        case .success(let fd): self.fd = fd
        case .failure(let e) where e == .permissionDenied || e == Errno(EPERM): throw .permissionDenied(path: path)
        case .failure(let e) where e == .noEntry || e == .noDevice: throw .cannotOpen(path: path, e)
        case .failure(let e): throw .cannotOpen(path: path, e)
        }
        var cap = v4l2_capability()
        if let e = system.call(fd, CV4L2_VIDIOC_QUERYCAP, &cap) {
            system.close(fd)
            throw e == .invalidArgument
                ? .notACaptureDevice(path: path) : .call(path: path, request: "VIDIOC_QUERYCAP", e)
        }
        card = cString(cap.card)
        driver = cString(cap.driver)
        busInfo = cString(cap.bus_info)
        capabilities = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        system.close(fd)
    }

    public var canCapture: Bool {
        capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && capabilities & UInt32(V4L2_CAP_STREAMING) != 0
    }

    public var capabilityNames: [String] {
        let known: [(UInt32, String)] = [
            (UInt32(V4L2_CAP_VIDEO_CAPTURE), "video-capture"), (UInt32(V4L2_CAP_VIDEO_OUTPUT), "video-output"),
            (UInt32(V4L2_CAP_META_CAPTURE), "meta-capture"), (UInt32(V4L2_CAP_READWRITE), "read-write"),
            (UInt32(V4L2_CAP_STREAMING), "streaming"), (UInt32(V4L2_CAP_EXT_PIX_FORMAT), "ext-pix-format"),
        ]
        return known.filter { capabilities & $0.0 != 0 }.map(\.1)
    }

    func fail(_ request: String, _ e: Errno) -> CaptureError {
        e == .noDevice ? .disconnected(path: path) : .call(path: path, request: request, e)
    }

    // MARK: Formats

    public func formats() throws(CaptureError) -> [V4L2FormatInfo] {
        var result: [V4L2FormatInfo] = []
        var index: UInt32 = 0
        while true {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            if let e = system.call(fd, CV4L2_VIDIOC_ENUM_FMT, &desc) {
                if e == .invalidArgument { break }
                throw fail("VIDIOC_ENUM_FMT", e)
            }
            let fourcc = FourCC(desc.pixelformat)
            result.append(
                V4L2FormatInfo(
                    fourcc: fourcc, description: cString(desc.description),
                    compressed: desc.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                    emulated: desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0,
                    sizes: try frameSizes(fourcc)))
            index += 1
        }
        return result
    }

    func frameSizes(_ fourcc: FourCC) throws(CaptureError) -> [V4L2FrameSize] {
        var sizes: [V4L2FrameSize] = []
        var index: UInt32 = 0
        while true {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = fourcc.rawValue
            if let e = system.call(fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &size) {
                if e == .invalidArgument { break }
                throw fail("VIDIOC_ENUM_FRAMESIZES", e)
            }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let (w, h) = (Int(size.discrete.width), Int(size.discrete.height))
                sizes.append(V4L2FrameSize(width: w, height: h, frameRates: try frameRates(fourcc, w, h)))
                index += 1
            } else {
                // Stepwise or continuous: report the two ends.
                let s = size.stepwise
                for (w, h) in [(Int(s.min_width), Int(s.min_height)), (Int(s.max_width), Int(s.max_height))] {
                    sizes.append(V4L2FrameSize(width: w, height: h, frameRates: try frameRates(fourcc, w, h)))
                }
                break
            }
        }
        return sizes
    }

    func frameRates(_ fourcc: FourCC, _ width: Int, _ height: Int) throws(CaptureError) -> [Double] {
        var rates: [Double] = []
        var index: UInt32 = 0
        while true {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = fourcc.rawValue
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            if let e = system.call(fd, CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &interval) {
                if e == .invalidArgument { break }
                throw fail("VIDIOC_ENUM_FRAMEINTERVALS", e)
            }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                let f = interval.discrete
                if f.numerator > 0 { rates.append(Double(f.denominator) / Double(f.numerator)) }
                index += 1
            } else {
                let s = interval.stepwise
                if s.min.numerator > 0 { rates.append(Double(s.min.denominator) / Double(s.min.numerator)) }
                if s.max.numerator > 0 { rates.append(Double(s.max.denominator) / Double(s.max.numerator)) }
                break
            }
        }
        return rates.sorted(by: >)
    }

    /// Sets the capture format; returns what the driver actually chose.
    public func setFormat(_ fourcc: FourCC, width: Int, height: Int) throws(CaptureError) -> (
        fourcc: FourCC, width: Int, height: Int, bytesPerLine: Int
    ) {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(width)
        format.fmt.pix.height = UInt32(height)
        format.fmt.pix.pixelformat = fourcc.rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        if let e = system.call(fd, CV4L2_VIDIOC_S_FMT, &format) { throw fail("VIDIOC_S_FMT", e) }
        let pix = format.fmt.pix
        let bytesPerLine =
            pix.bytesperline > 0 ? Int(pix.bytesperline) : Int(pix.width) * (FourCC(pix.pixelformat) == .yuyv ? 2 : 3)
        return (FourCC(pix.pixelformat), Int(pix.width), Int(pix.height), bytesPerLine)
    }

    /// Asks for a frame rate; returns the rate the driver set (nil when it does not say).
    @discardableResult
    public func setFrameRate(_ rate: Double) -> Double? {
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((rate * 1000).rounded()))
        guard system.call(fd, CV4L2_VIDIOC_S_PARM, &parm) == nil else { return nil }
        let f = parm.parm.capture.timeperframe
        return f.numerator > 0 ? Double(f.denominator) / Double(f.numerator) : nil
    }

    // MARK: Controls

    public func controls() throws(CaptureError) -> [V4L2ControlInfo] {
        var result: [V4L2ControlInfo] = []
        var query = v4l2_query_ext_ctrl()
        query.id = CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE
        while system.call(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &query) == nil {
            let id = query.id
            let name = cString(query.name)
            let flags = query.flags
            if flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0, query.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue {
                var menu: [V4L2MenuEntry] = []
                if query.type == V4L2_CTRL_TYPE_MENU.rawValue || query.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue {
                    menu = menuEntries(
                        id: id, minimum: query.minimum, maximum: query.maximum,
                        integer: query.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue)
                }
                let writeOnly = flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0
                result.append(
                    V4L2ControlInfo(
                        id: id, name: name, key: V4L2ControlInfo.key(for: name),
                        type: Self.typeName(query.type), minimum: query.minimum, maximum: query.maximum,
                        step: query.step, defaultValue: query.default_value,
                        value: writeOnly ? nil : try? value(ofControl: id), menu: menu,
                        readOnly: flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0,
                        inactive: flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0))
            }
            query = v4l2_query_ext_ctrl()
            query.id = id | CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE
        }
        return result
    }

    func menuEntries(id: UInt32, minimum: Int64, maximum: Int64, integer: Bool) -> [V4L2MenuEntry] {
        guard minimum >= 0, maximum - minimum < 256 else { return [] }
        var entries: [V4L2MenuEntry] = []
        for index in minimum...maximum {
            var item = v4l2_querymenu()
            item.id = id
            item.index = UInt32(index)
            guard system.call(fd, CV4L2_VIDIOC_QUERYMENU, &item) == nil else { continue }
            entries.append(V4L2MenuEntry(index: index, name: integer ? String(item.value) : cString(item.name)))
        }
        return entries
    }

    public func value(ofControl id: UInt32) throws(CaptureError) -> Int64 {
        var control = v4l2_control(id: id, value: 0)
        if let e = system.call(fd, CV4L2_VIDIOC_G_CTRL, &control) { throw fail("VIDIOC_G_CTRL", e) }
        return Int64(control.value)
    }

    public func setControl(_ id: UInt32, to value: Int64) throws(CaptureError) {
        var control = v4l2_control(id: id, value: Int32(clamping: value))
        if let e = system.call(fd, CV4L2_VIDIOC_S_CTRL, &control) { throw fail("VIDIOC_S_CTRL", e) }
    }

    static func typeName(_ type: UInt32) -> String {
        switch type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: "int"
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: "bool"
        case V4L2_CTRL_TYPE_MENU.rawValue: "menu"
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: "intmenu"
        case V4L2_CTRL_TYPE_BUTTON.rawValue: "button"
        case V4L2_CTRL_TYPE_INTEGER64.rawValue: "int64"
        case V4L2_CTRL_TYPE_BITMASK.rawValue: "bitmask"
        case V4L2_CTRL_TYPE_STRING.rawValue: "string"
        default: "type\(type)"
        }
    }
}
