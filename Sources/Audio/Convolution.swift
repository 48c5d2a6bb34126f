import CVision

/// Linear convolution through one DFT (CVision): what a room's long impulse response does to a
/// signal, at a cost that does not grow with the response's length.
public enum Convolution {
    /// The first `signal.count` samples of `signal` convolved with `response`.
    public static func apply(_ response: [Float], to signal: [Float]) -> [Float] {
        guard !signal.isEmpty, !response.isEmpty else { return [Float](repeating: 0, count: signal.count) }
        var out = [Float](repeating: 0, count: signal.count)
        let status = signal.withUnsafeBufferPointer { x in
            response.withUnsafeBufferPointer { h in
                out.withUnsafeMutableBufferPointer { y in
                    cvision_convolve(x.baseAddress, Int32(x.count), h.baseAddress, Int32(h.count), y.baseAddress)
                }
            }
        }
        // Only an allocation failure inside OpenCV gets here; silence is the safe answer.
        return status == CVISION_OK ? out : [Float](repeating: 0, count: signal.count)
    }
}
