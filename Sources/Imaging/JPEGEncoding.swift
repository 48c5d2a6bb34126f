import CTurboJPEG
import DockCore

extension Frame {
    /// The image as a JPEG file's bytes (libturbojpeg; 4:2:0 chroma for colour), for the preview
    /// and the frame stream: the pipeline's JPEG needs no OpenCV file codec.
    public func jpegData(quality: Int = 80) throws(ImagingError) -> [UInt8] {
        guard let handle = tjInitCompress() else {
            throw ImagingError(operation: "encode JPEG", message: "libturbojpeg could not start a compressor")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let layout = format == .gray ? (TJPF_GRAY, TJSAMP_GRAY) : (TJPF_BGR, TJSAMP_420)
        let status = pixels.withUnsafeBufferPointer { input in
            tjCompress2(
                handle, input.baseAddress, Int32(width), Int32(bytesPerRow), Int32(height),
                Int32(layout.0.rawValue), &output, &length, Int32(layout.1.rawValue), Int32(min(max(quality, 1), 100)),
                TJFLAG_FASTDCT)
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw ImagingError(operation: "encode JPEG", message: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
