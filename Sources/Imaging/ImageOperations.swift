import CVision
import DockCore

public enum Interpolation: Int32, Sendable {
    case nearest = 0
    case linear = 1
    case area = 3
}

extension Frame {
    /// Reads a still image file (PNG, JPEG, …).
    public static func read(
        contentsOf path: String, format: PixelFormat = .bgr,
        stamp: FrameStamp = FrameStamp(sequence: 0, time: .zero)
    ) throws(ImagingError) -> Frame {
        guard let image = cvision_image_read(path, format == .gray ? 1 : 0) else {
            throw ImagingError.last("read \(path)")
        }
        defer { cvision_image_free(image) }
        return Frame(copying: cvision_image_view(image), stamp: stamp)
    }

    /// Writes the frame to a still image file; the extension picks the codec.
    public func write(to path: String) throws(ImagingError) {
        try check(withView { cvision_image_write(path, $0) }, "write \(path)")
    }

    public func resized(to size: PixelSize, interpolation: Interpolation = .area) throws(ImagingError) -> Frame {
        if size == self.size { return self }
        var out = Frame(stamp: stamp, width: size.width, height: size.height, format: format)
        let status = withView { src in out.withMutableView { dst in cvision_resize(src, dst, interpolation.rawValue) } }
        try check(status, "resize")
        return out
    }

    public func converted(to target: PixelFormat) throws(ImagingError) -> Frame {
        if target == format { return self }
        var out = Frame(stamp: stamp, width: width, height: height, format: target)
        let status = withView { src in out.withMutableView { dst in cvision_convert_channels(src, dst) } }
        try check(status, "convert")
        return out
    }

    /// A new frame of `size` whose pixel p shows this frame's pixel H·p (H maps destination to
    /// source, row-major 3×3). Pixels that map outside become `border`.
    public func warped(
        to size: PixelSize, homography: [Double], border: UInt8 = 0,
        stamp: FrameStamp? = nil
    ) throws(ImagingError) -> Frame {
        precondition(homography.count == 9)
        var out = Frame(stamp: stamp ?? self.stamp, width: size.width, height: size.height, format: format)
        let status = withView { src in
            out.withMutableView { dst in
                homography.withUnsafeBufferPointer { cvision_warp_perspective(src, dst, $0.baseAddress, Int32(border)) }
            }
        }
        try check(status, "warp")
        return out
    }

    /// Blends `sprite` (scaled to `rect`) over this frame, weighted by `alpha` when given.
    public mutating func blend(_ sprite: Frame, alpha: Frame?, into rect: PixelRect) throws(ImagingError) {
        let (x, y) = (Int32(rect.x.rounded()), Int32(rect.y.rounded()))
        let (w, h) = (Int32(rect.width.rounded()), Int32(rect.height.rounded()))
        let status = withMutableView { dst in
            sprite.withView { src in
                if let alpha {
                    alpha.withView { a in cvision_blend_sprite(dst, src, a, x, y, w, h) }
                } else {
                    cvision_blend_sprite(
                        dst, src, cvision_view(data: nil, width: 0, height: 0, channels: 1, stride: 0), x, y, w, h)
                }
            }
        }
        try check(status, "blend")
    }

    /// Gaussian sensor-like noise in place (standard deviation in gray levels), repeatable per seed.
    public mutating func addNoise(sigma: Double, seed: UInt64) throws(ImagingError) {
        try check(withMutableView { cvision_add_noise($0, sigma, seed) }, "noise")
    }

    /// Gaussian blur in place.
    public mutating func blur(sigma: Double) throws(ImagingError) {
        try check(withMutableView { cvision_blur($0, sigma) }, "blur")
    }
}

extension Frame {
    /// Horizontal motion blur in place, as a subject moving `length` pixels during the exposure.
    public mutating func motionBlur(length: Int) throws(ImagingError) {
        try check(withMutableView { cvision_motion_blur($0, Int32(clamping: length)) }, "motion blur")
    }

    /// Scales the pixel levels in place (a lighting change): v' = v · gain + offset, saturated.
    public mutating func scaleLevels(gain: Double, offset: Double = 0) throws(ImagingError) {
        try check(withMutableView { cvision_scale_levels($0, gain, offset) }, "scale levels")
    }

    /// Mirrors the image left to right in place.
    public mutating func flipHorizontally() throws(ImagingError) {
        try check(withMutableView { cvision_flip_horizontal($0) }, "flip")
    }

    /// Compresses to JPEG at `quality` and back, in place: the blocks and ringing of a cheap webcam.
    public mutating func jpegRoundTrip(quality: Int) throws(ImagingError) {
        try check(withMutableView { cvision_jpeg_round_trip($0, Int32(clamping: quality)) }, "JPEG round trip")
    }
}
