import DockCore

extension Frame {
    /// The pixels inside `rect` (clamped to the frame, whole pixels), as a frame of their own
    /// with the same stamp. nil when nothing of `rect` lies inside.
    public func cropped(to rect: PixelRect) -> (frame: Frame, origin: PixelPoint)? {
        let x0 = max(0, Int(rect.x.rounded(.down))), y0 = max(0, Int(rect.y.rounded(.down)))
        let x1 = min(width, Int(rect.maxX.rounded(.up))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
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
        return (Frame(stamp: stamp, width: x1 - x0, height: y1 - y0, format: format, pixels: out),
                PixelPoint(x: Double(x0), y: Double(y0)))
    }
}
