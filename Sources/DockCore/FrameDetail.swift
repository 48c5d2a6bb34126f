/// The finer picture behind a frame that was made small for detection, produced only when
/// asked: a camera's MJPEG frame decoded at 1/4 scale keeps its compressed bytes, and a second
/// look at a small face or a lip reading decodes just the region it needs at full resolution.
/// Frames without one are their own finest picture.
public protocol FrameDetail: AnyObject, Sendable {
    /// The size of the finest picture (the camera's or the file's own).
    var fullSize: PixelSize { get }
    /// The pixels of `rect` in the picture made 1/`scale` as large (1, 2, 4 or 8; whole pixels,
    /// top-left origin, inside `size(scale:)`), in `format`; nil when it cannot be decoded.
    func region(_ rect: PixelRect, scale: Int, format: PixelFormat) -> Frame?
}

extension FrameDetail {
    /// The picture's size at 1/`scale`, rounded up as libjpeg's DCT scaling does.
    public func size(scale: Int) -> PixelSize {
        PixelSize(width: (fullSize.width + scale - 1) / scale, height: (fullSize.height + scale - 1) / scale)
    }
}
