import DockCore

extension Frame {
    /// The pixels inside `rect` (clamped to the frame, whole pixels), as a frame of their own
    /// with the same stamp. nil when nothing of `rect` lies inside.
    public func cropped(to rect: PixelRect) -> (frame: Frame, origin: PixelPoint)? {
        guard let (x0, y0, x1, y1) = wholePixels(of: rect) else { return nil }
        let channels = format.channels
        let rowBytes = (x1 - x0) * channels
        var out = [UInt8](repeating: 0, count: rowBytes * (y1 - y0))
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in y0..<y1 {
                    let from = source.baseAddress! + row * bytesPerRow + x0 * channels
                    (target.baseAddress! + (row - y0) * rowBytes).update(from: from, count: rowBytes)
                }
            }
        }
        return (
            Frame(stamp: stamp, width: x1 - x0, height: y1 - y0, format: format, pixels: out),
            PixelPoint(x: Double(x0), y: Double(y0))
        )
    }

    /// Copies the pixels inside `rect` (whole pixels, rounded outward, clamped) from `original`,
    /// a frame of the same size and format, leaving the rest alone: undoes what was painted there.
    public mutating func copyPixels(in rect: PixelRect, from original: Frame) {
        precondition(original.size == size && original.format == format, "copying needs frames of one shape")
        guard let (x0, y0, x1, y1) = wholePixels(of: rect) else { return }
        let rowBytes = (x1 - x0) * format.channels
        let stride = bytesPerRow
        original.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in y0..<y1 {
                    let offset = row * stride + x0 * format.channels
                    (target.baseAddress! + offset).update(from: source.baseAddress! + offset, count: rowBytes)
                }
            }
        }
    }

    /// `rect` rounded outward to whole pixels and clamped to the frame: its corners (x1, y1
    /// exclusive), nil when nothing of it lies inside.
    private func wholePixels(of rect: PixelRect) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let x0 = max(0, Int(rect.x.rounded(.down)))
        let y0 = max(0, Int(rect.y.rounded(.down)))
        let x1 = min(width, Int(rect.maxX.rounded(.up)))
        let y1 = min(height, Int(rect.maxY.rounded(.up)))
        return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : nil
    }
}
