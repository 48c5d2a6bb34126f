import Foundation

/// Delays a signal by a fractional number of samples with a Blackman-windowed sinc: what a
/// microphone a little farther from the talker hears.
public enum FractionalDelay {
    public static func delayed(_ x: [Float], by samples: Double, halfWidth: Int = 32) -> [Float] {
        guard samples != 0 else { return x }
        let whole = Int(samples.rounded(.down))
        let fraction = samples - Double(whole)
        // Taps for the fractional part, centred on the output sample.
        let taps: [Double] = (-halfWidth...halfWidth).map { k in
            let t = Double(k) - fraction
            let sinc = abs(t) < 1e-12 ? 1 : sin(.pi * t) / (.pi * t)
            let position = (Double(k + halfWidth) - fraction) / Double(2 * halfWidth)
            let window = 0.42 - 0.5 * cos(2 * .pi * position) + 0.08 * cos(4 * .pi * position)
            return sinc * max(0, window)
        }
        var y = [Float](repeating: 0, count: x.count)
        for n in 0..<x.count {
            var sum = 0.0
            for (i, k) in (-halfWidth...halfWidth).enumerated() {
                let source = n - whole - k
                if source >= 0 && source < x.count { sum += Double(x[source]) * taps[i] }
            }
            y[n] = Float(sum)
        }
        return y
    }
}
