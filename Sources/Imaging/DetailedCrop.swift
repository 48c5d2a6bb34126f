import DockCore

/// A region of a frame at the finest resolution the frame can give, and the way back from its
/// pixels to the frame's.
public struct DetailedCrop: Sendable {
    public var frame: Frame
    /// The crop's top-left corner in the frame's pixels.
    public var origin: PixelPoint
    /// Frame pixels per crop pixel across and down (0.25 for a full-resolution crop of a frame
    /// decoded at 1/4).
    public var scaleX: Double
    public var scaleY: Double

    public func toFrame(_ p: PixelPoint) -> PixelPoint {
        PixelPoint(x: origin.x + p.x * scaleX, y: origin.y + p.y * scaleY)
    }

    public func toFrame(_ r: PixelRect) -> PixelRect {
        PixelRect(
            x: origin.x + r.x * scaleX, y: origin.y + r.y * scaleY, width: r.width * scaleX, height: r.height * scaleY)
    }

    public func fromFrame(_ p: PixelPoint) -> PixelPoint {
        PixelPoint(x: (p.x - origin.x) / scaleX, y: (p.y - origin.y) / scaleY)
    }

    public func fromFrame(_ r: PixelRect) -> PixelRect {
        PixelRect(
            x: (r.x - origin.x) / scaleX, y: (r.y - origin.y) / scaleY, width: r.width / scaleX,
            height: r.height / scaleY)
    }
}

extension Frame {
    /// The pixels of `rect` (frame pixels, clamped to the frame) at the finest resolution
    /// available: from `detail` at the coarsest DCT scale that still gives `minimumWidth`
    /// pixels across (full resolution when none does) and is finer than the frame itself; from
    /// the frame's own pixels when it has no detail or the detail cannot be decoded. nil when
    /// nothing of `rect` lies inside the frame.
    public func detailedCrop(_ rect: PixelRect, minimumWidth: Int = .max) -> DetailedCrop? {
        if let detail, let crop = detailCrop(rect, detail: detail, minimumWidth: minimumWidth) { return crop }
        guard let (crop, origin) = cropped(to: rect) else { return nil }
        return DetailedCrop(frame: crop, origin: origin, scaleX: 1, scaleY: 1)
    }

    private func detailCrop(_ rect: PixelRect, detail: any FrameDetail, minimumWidth: Int) -> DetailedCrop? {
        let full = detail.fullSize
        let fx = Double(full.width) / Double(width)
        let fy = Double(full.height) / Double(height)
        guard fx > 1.01, rect.width > 0, rect.height > 0 else { return nil }
        let wantedWidth = rect.width * fx
        let scale =
            [8, 4, 2].first { s in Double(s) < fx - 0.01 && wantedWidth / Double(s) >= Double(minimumWidth) } ?? 1
        let size = detail.size(scale: scale)
        // The rectangle in the scaled picture's whole pixels, clamped to it.
        let sx = fx / Double(scale)
        let sy = fy / Double(scale)
        let x0 = max(0, Int((rect.x * sx).rounded(.down)))
        let y0 = max(0, Int((rect.y * sy).rounded(.down)))
        let x1 = min(size.width, Int((rect.maxX * sx).rounded(.up)))
        let y1 = min(size.height, Int((rect.maxY * sy).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let region = PixelRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
        guard var crop = detail.region(region, scale: scale, format: format) else { return nil }
        crop.stamp = stamp
        return DetailedCrop(
            frame: crop, origin: PixelPoint(x: Double(x0) / sx, y: Double(y0) / sy), scaleX: 1 / sx, scaleY: 1 / sy)
    }
}

/// A finer picture already decoded (a file FFmpeg decoded in full, shrunk for detection): its
/// regions are cropped from it and shrunk as asked.
public final class DecodedDetail: FrameDetail {
    public let picture: Frame
    public var fullSize: PixelSize { picture.size }

    public init(_ picture: Frame) {
        var stripped = picture
        stripped.detail = nil
        self.picture = stripped
    }

    public func region(_ rect: PixelRect, scale: Int, format: PixelFormat) -> Frame? {
        let full = PixelRect(
            x: rect.x * Double(scale), y: rect.y * Double(scale), width: rect.width * Double(scale),
            height: rect.height * Double(scale))
        guard let (crop, _) = picture.cropped(to: full) else { return nil }
        let wanted = PixelSize(width: Int(rect.width), height: Int(rect.height))
        let sized = crop.size == wanted ? crop : try? crop.resized(to: wanted)
        return try? sized?.converted(to: format)
    }
}

extension Frame {
    /// The size a person watching should get: the frame's own, or a whole multiple of it at
    /// least `width` across (a frame decoded at 1/4 for detection is shown at 1/2).
    public static func viewingSize(of size: PixelSize, atLeast width: Int = 640) -> PixelSize {
        let factor = max(1, (width + size.width - 1) / size.width)
        return PixelSize(width: size.width * factor, height: size.height * factor)
    }

    /// The part `crop` (unit rect, lower-left origin) of the picture, decoded from the detail at
    /// the coarsest scale at least `minimumWidth` across when the frame has one; nil when empty.
    public func region(_ crop: NormalizedRect, minimumWidth: Int) -> Frame? {
        let rect = ImageCoordinates(size: size).pixels(crop)
        return detailedCrop(rect, minimumWidth: minimumWidth)?.frame ?? cropped(to: rect)?.frame
    }

    /// The whole picture at `size`: decoded from the detail when the frame has one (at the
    /// coarsest scale that is large enough), else the frame itself, resized if need be.
    public func picture(at size: PixelSize) -> Frame {
        guard size != self.size else { return self }
        let whole = PixelRect(x: 0, y: 0, width: Double(width), height: Double(height))
        var picture = detailedCrop(whole, minimumWidth: size.width)?.frame ?? self
        if picture.size != size, let resized = try? picture.resized(to: size) { picture = resized }
        picture.stamp = stamp
        picture.camera = nil
        return picture.size == size ? picture : self
    }
}
