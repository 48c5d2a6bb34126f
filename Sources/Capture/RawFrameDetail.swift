import CVision
import DockCore

/// The camera's own picture behind a raw (YUYV, RGB, gray) frame converted small for detection,
/// kept when a consumer of full-size pictures asks for it (the virtual camera, a second look):
/// read in place from the driver's buffer, which the frame leases, or, when too few buffers
/// would be left to the driver, from a copy. A region is converted straight from it at the
/// scale asked, so nothing is converted at full size that is not shown. Planar layouts (NV12,
/// I420) have no region access here and give nil; the caller falls back to the small frame.
public final class RawFrameDetail: FrameDetail {
    /// How the bytes are laid out.
    struct Picture {
        let layout: Int32
        let fullSize: PixelSize
        let stride: Int
    }

    private enum Storage {
        case leased(BufferLease)
        case copied([UInt8])
    }

    private let storage: Storage
    public var fullSize: PixelSize { picture.fullSize }
    private let picture: Picture
    private var layout: Int32 { picture.layout }
    private var stride: Int { picture.stride }

    /// Whether the picture is read from the driver's buffer rather than a copy.
    public var isLeased: Bool {
        if case .leased = storage { true } else { false }
    }

    /// Bytes per pixel of the packed layouts a region can be cut from.
    private var pixelBytes: Int? {
        switch layout {
        case Int32(CVISION_RAW_YUYV): 2
        case Int32(CVISION_RAW_RGB24), Int32(CVISION_RAW_BGR24): 3
        case Int32(CVISION_RAW_GREY): 1
        default: nil
        }
    }

    init(leasing lease: BufferLease, _ picture: Picture) {
        storage = .leased(lease)
        self.picture = picture
    }

    init(copying buffer: UnsafeRawBufferPointer, _ picture: Picture) {
        storage = .copied([UInt8](buffer))
        self.picture = picture
    }

    private func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch storage {
        case .leased(let lease): body(lease.bytes)
        case .copied(let bytes): bytes.withUnsafeBytes(body)
        }
    }

    public func region(_ rect: PixelRect, scale: Int, format: PixelFormat) -> Frame? {
        guard let pixelBytes, [1, 2, 4, 8].contains(scale), rect.x >= 0, rect.y >= 0 else { return nil }
        let (width, height) = (Int(rect.width), Int(rect.height))
        let bounds = size(scale: scale)
        guard width > 0, height > 0, Int(rect.x) + width <= bounds.width, Int(rect.y) + height <= bounds.height else {
            return nil
        }
        // The region in the full picture; YUYV pairs share their colour, so it starts on an even pixel.
        var x0 = Int(rect.x) * scale
        if layout == Int32(CVISION_RAW_YUYV) { x0 -= x0 % 2 }
        let y0 = Int(rect.y) * scale
        var w = min(width * scale, fullSize.width - x0)
        if layout == Int32(CVISION_RAW_YUYV) { w -= w % 2 }
        let h = min(height * scale, fullSize.height - y0)
        guard w > 0, h > 0 else { return nil }
        var frame = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: width, height: height, format: format)
        let rowBytes = frame.bytesPerRow
        let offset = y0 * stride + x0 * pixelBytes
        // The rows it reads end before the buffer does; the shim checks whole rows of `stride`.
        let status = withBytes { input -> Int32 in
            guard offset + (h - 1) * stride + w * pixelBytes <= input.count, let start = input.baseAddress else {
                return -1
            }
            return frame.pixels.withUnsafeMutableBufferPointer { out in
                cvision_convert_raw(
                    layout, start.assumingMemoryBound(to: UInt8.self) + offset, h * stride, Int32(w), Int32(h), stride,
                    cvision_view(
                        data: out.baseAddress, width: Int32(width), height: Int32(height),
                        channels: Int32(format.channels), stride: rowBytes))
            }
        }
        return status == 0 ? frame : nil
    }
}
