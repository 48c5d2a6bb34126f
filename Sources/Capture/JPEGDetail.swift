import CJPEG
import DockCore

/// A camera or file frame's JPEG, kept beside the frame decoded small for detection: a region
/// is decoded from it only when asked (second looks at small faces, lip reading, the preview),
/// skipping the rows above it and the columns beside it (`cjpeg_decode_region`). Holding the
/// compressed bytes costs about a tenth of holding the full picture.
public final class JPEGDetail: FrameDetail {
    public let data: [UInt8]
    public let fullSize: PixelSize

    /// `fullSize` is the size the header gives (the caller has read it already).
    public init(data: [UInt8], fullSize: PixelSize) {
        self.data = data
        self.fullSize = fullSize
    }

    public init(copying bytes: UnsafeRawBufferPointer, fullSize: PixelSize) {
        self.data = [UInt8](bytes)
        self.fullSize = fullSize
    }

    public func region(_ rect: PixelRect, scale: Int, format: PixelFormat) -> Frame? {
        guard [1, 2, 4, 8].contains(scale), rect.x >= 0, rect.y >= 0 else { return nil }
        let width = Int(rect.width)
        let height = Int(rect.height)
        let bounds = size(scale: scale)
        guard width > 0, height > 0, Int(rect.x) + width <= bounds.width, Int(rect.y) + height <= bounds.height else {
            return nil
        }
        var frame = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: width, height: height, format: format)
        let stride = frame.bytesPerRow
        let status = data.withUnsafeBufferPointer { input in
            frame.pixels.withUnsafeMutableBufferPointer { out in
                cjpeg_decode_region(
                    input.baseAddress, input.count, Int32(scale), Int32(rect.x), Int32(rect.y), Int32(width),
                    Int32(height), Int32(format.channels), out.baseAddress, stride)
            }
        }
        return status == 0 ? frame : nil
    }

    /// Why the last region on this thread could not be decoded.
    public static var lastError: String { String(cString: cjpeg_last_error()) }
}
