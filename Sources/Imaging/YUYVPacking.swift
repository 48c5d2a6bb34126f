import CVision
import DockCore

extension Frame {
    /// The picture as YUYV 4:2:2 (BT.601, video range), two bytes a pixel, rows tightly packed:
    /// what a virtual camera hands to the programs that read it. The width must be even.
    public func packedYUYV() throws(ImagingError) -> [UInt8] {
        let rowBytes = width * 2
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        let status = withView { src in
            packed.withUnsafeMutableBufferPointer { cvision_pack_yuyv(src, $0.baseAddress, rowBytes) }
        }
        try check(status, "pack YUYV")
        return packed
    }
}
