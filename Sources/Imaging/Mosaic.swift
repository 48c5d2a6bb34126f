import DockCore

/// Regions of a frame side by side in one small image, each in a square tile, so one detector
/// call looks at all of them, at one of a few sizes that seldom change (a detector's network is
/// rebuilt whenever its input size changes).
public struct Mosaic: Sendable {
    /// Where a region went: its rectangle in the frame, the corner of its tile in the mosaic,
    /// the size it takes there, and frame pixels per mosaic pixel.
    public struct Tile: Sendable, Equatable {
        public var region: PixelRect
        public var corner: PixelPoint
        public var fitted: PixelSize
        public var scale: Double
    }

    public let image: Frame
    public let tiles: [Tile]

    /// `regions` (frame pixels; clamped to the frame, empty ones skipped) shrunk by `scale`
    /// (frame pixels per mosaic pixel; 1 copies them as they are) into `tileSide` squares, one
    /// or two to a row, the rest of each tile black. nil when no region lies in the frame.
    public init?(frame: Frame, regions: [PixelRect], tileSide: Int, scale: Double = 1) {
        var crops: [(Frame, PixelRect)] = []
        for region in regions {
            guard let (crop, origin) = frame.cropped(to: region) else { continue }
            crops.append(
                (crop, PixelRect(x: origin.x, y: origin.y, width: Double(crop.width), height: Double(crop.height))))
        }
        guard !crops.isEmpty else { return nil }
        let columns = min(2, crops.count)
        let rows = (crops.count + columns - 1) / columns
        var canvas = Frame(stamp: frame.stamp, width: columns * tileSide, height: rows * tileSide, format: frame.format)
        var tiles: [Tile] = []
        for (index, (crop, region)) in crops.enumerated() {
            let fitted = PixelSize(
                width: max(1, min(tileSide, Int((region.width / scale).rounded()))),
                height: max(1, min(tileSide, Int((region.height / scale).rounded()))))
            let corner = PixelPoint(x: Double((index % columns) * tileSide), y: Double((index / columns) * tileSide))
            guard let sized = crop.size == fitted ? crop : try? crop.resized(to: fitted) else { continue }
            canvas.paste(sized, at: corner)
            tiles.append(
                Tile(region: region, corner: corner, fitted: fitted, scale: region.width / Double(fitted.width)))
        }
        guard !tiles.isEmpty else { return nil }
        image = canvas
        self.tiles = tiles
    }

    /// The tile whose picture holds `point` (mosaic pixels), if any.
    public func tile(containing point: PixelPoint) -> Tile? {
        tiles.first { t in
            point.x >= t.corner.x && point.x < t.corner.x + Double(t.fitted.width) && point.y >= t.corner.y
                && point.y < t.corner.y + Double(t.fitted.height)
        }
    }

    public func toFrame(_ p: PixelPoint, in tile: Tile) -> PixelPoint {
        PixelPoint(
            x: tile.region.x + (p.x - tile.corner.x) * tile.scale, y: tile.region.y + (p.y - tile.corner.y) * tile.scale
        )
    }

    public func toFrame(_ r: PixelRect, in tile: Tile) -> PixelRect {
        let corner = toFrame(PixelPoint(x: r.x, y: r.y), in: tile)
        return PixelRect(x: corner.x, y: corner.y, width: r.width * tile.scale, height: r.height * tile.scale)
    }
}

extension Frame {
    /// Copies `image` (same format) into this frame with its top-left corner at `corner`,
    /// clipped to this frame.
    public mutating func paste(_ image: Frame, at corner: PixelPoint) {
        precondition(image.format == format, "pasting needs one pixel format")
        let x0 = Int(corner.x)
        let y0 = Int(corner.y)
        let columns = min(image.width, width - x0)
        guard x0 >= 0, y0 >= 0, columns > 0 else { return }
        let channels = format.channels
        let rowBytes = columns * channels
        let sourceRow = image.bytesPerRow
        let targetRow = bytesPerRow
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<min(image.height, height - y0) {
                    (target.baseAddress! + (y0 + row) * targetRow + x0 * channels).update(
                        from: source.baseAddress! + row * sourceRow, count: rowBytes)
                }
            }
        }
    }
}
