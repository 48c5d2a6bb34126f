import CVision
import DockCore

extension Frame {
    /// Lends the pixels to the shim read-only.
    public func withView<R>(_ body: (cvision_view) throws -> R) rethrows -> R {
        try pixels.withUnsafeBufferPointer { buffer in
            try body(
                cvision_view(
                    data: UnsafeMutablePointer(mutating: buffer.baseAddress), width: Int32(width),
                    height: Int32(height), channels: Int32(format.channels), stride: bytesPerRow))
        }
    }

    /// Lends the pixels to the shim for writing in place.
    public mutating func withMutableView<R>(_ body: (cvision_view) throws -> R) rethrows -> R {
        let (w, h, c, stride) = (Int32(width), Int32(height), Int32(format.channels), bytesPerRow)
        return try pixels.withUnsafeMutableBufferPointer { buffer in
            try body(cvision_view(data: buffer.baseAddress, width: w, height: h, channels: c, stride: stride))
        }
    }

    /// Copies pixels out of a shim-owned view into a new frame.
    public init(copying view: cvision_view, stamp: FrameStamp) {
        let format: PixelFormat = view.channels == 1 ? .gray : .bgr
        let rowBytes = Int(view.width) * format.channels
        var pixels = [UInt8](repeating: 0, count: rowBytes * Int(view.height))
        pixels.withUnsafeMutableBytes { out in
            for row in 0..<Int(view.height) {
                (out.baseAddress! + row * rowBytes).copyMemory(from: view.data + row * view.stride, byteCount: rowBytes)
            }
        }
        self.init(stamp: stamp, width: Int(view.width), height: Int(view.height), format: format, pixels: pixels)
    }
}
