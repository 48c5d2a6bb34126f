import CVision
import Foundation

/// What one stretch of sound holds, measured against the room's own noise.
public struct SpectralMeasures: Sendable, Hashable {
    /// The speech band's power over its noise floor, dB.
    public var snrDecibels: Double
    /// How periodic the sound above the floor is (0…1): voices are, fans and hiss are not.
    public var harmonicity: Double
    /// This stretch itself is voiced speech (no hangover).
    public var voiced: Bool
    /// Direction (radians, positive right) of the sound above the floor, with the noise's own
    /// cross-spectrum taken out; nil when not voiced or no pair.
    public var direction: Double?
    /// How clearly one direction stands out (0…1).
    public var coherence: Double?
}

/// The audio front end for rooms, per short stretch of a microphone pair:
/// - a noise floor tracked per frequency bin by minimum statistics (the least smoothed power
///   over the last 1.6 s), so a fan or an air conditioner is the floor, not speech;
/// - speech presence from the voice's structure: the speech band above that floor by a margin
///   and periodic (the autocorrelation of the power above the floor peaks at a pitch lag);
/// - the noise's cross-spectrum, learnt while nobody speaks and taken out of each voiced
///   stretch's, so a steady source stops pulling the direction towards itself;
/// - direction by steered response power over the speech band, each bin weighted by its SNR
///   and by how much its power is rising (the direct sound leads, the room's echo follows).
/// Pure: feed stretches in order.
public struct RoomFrontEnd: Sendable {
    public let sampleRate: Double
    public let array: MicrophoneArray
    public let fftSize: Int
    /// The speech band (Hz) direction and presence are read in.
    public static let band: ClosedRange<Double> = 500...4000
    /// The speech band must stand this far above the floor (dB), and be this periodic.
    public var minimumSNR = 6.0
    public var minimumHarmonicity = 0.25
    /// Windows per minimum-statistics block, and blocks remembered.
    private let blockLength = 10
    private let blockCount = 8

    private let bins: Range<Int>
    private var smoothed: [Double]
    private var previous: [Double]
    private var blockMinimum: [Double]
    private var blocks: [[Double]] = []
    private var inBlock = 0
    private var noiseCrossReal: [Double]
    private var noiseCrossImaginary: [Double]
    private var noiseWindows = 0
    private var recentCorrelations: [[Double]] = []
    /// Steering table: for each candidate angle and bin, cos and sin of 2π f τ(θ).
    private let angles: [Double]
    private let steerCos: [Float]
    private let steerSin: [Float]
    /// Pitch lags (s) and cos(2π f τ) for the harmonicity's autocorrelation.
    private let pitchLags: [Double]
    private let pitchCos: [Float]
    private let pitchBins: Range<Int>

    public init(sampleRate: Double, array: MicrophoneArray, fftSize: Int = 2048) {
        self.sampleRate = sampleRate
        self.array = array
        self.fftSize = fftSize
        let binWidth = sampleRate / Double(fftSize)
        let low = max(1, Int((Self.band.lowerBound / binWidth).rounded()))
        let high = min(fftSize / 2, Int((Self.band.upperBound / binWidth).rounded()))
        bins = low..<high
        let count = fftSize / 2 + 1
        smoothed = [Double](repeating: 0, count: count)
        previous = [Double](repeating: 0, count: count)
        blockMinimum = [Double](repeating: .infinity, count: count)
        noiseCrossReal = [Double](repeating: 0, count: count)
        noiseCrossImaginary = [Double](repeating: 0, count: count)
        angles = stride(from: -90.0, through: 90.0, by: 1).map { $0 * .pi / 180 }
        var c: [Float] = []
        var s: [Float] = []
        for angle in angles {
            let tau = array.delay(forAngle: angle)
            for k in low..<high {
                let phase = 2 * Double.pi * Double(k) * binWidth * tau
                c.append(Float(cos(phase)))
                s.append(Float(sin(phase)))
            }
        }
        steerCos = c
        steerSin = s
        pitchLags = stride(from: 1 / 400.0, through: 1 / 80.0, by: 0.0001).map { $0 }
        let pitchHigh = min(count - 1, Int((2000 / binWidth).rounded()))
        pitchBins = max(1, Int((80 / binWidth).rounded()))..<pitchHigh
        var p: [Float] = []
        for lag in pitchLags {
            for k in pitchBins { p.append(Float(cos(2 * .pi * Double(k) * binWidth * lag))) }
        }
        pitchCos = p
    }

    /// The floor has seen enough of the room (a second) to judge speech against.
    public var isSettled: Bool { blocks.count >= 5 }

    /// One stretch of both channels (the same samples twice for one microphone: no direction).
    public mutating func measure(left: ArraySlice<Float>, right: ArraySlice<Float>, stereo: Bool) -> SpectralMeasures {
        let count = fftSize / 2 + 1
        var powerLeft = [Float](repeating: 0, count: count)
        var powerRight = [Float](repeating: 0, count: count)
        var crossReal = [Float](repeating: 0, count: count)
        var crossImaginary = [Float](repeating: 0, count: count)
        let samples = min(left.count, right.count, fftSize)
        let status = Array(left.prefix(samples)).withUnsafeBufferPointer { a in
            Array(right.prefix(samples)).withUnsafeBufferPointer { b in
                cvision_stereo_spectrum(
                    a.baseAddress, b.baseAddress, Int32(samples), Int32(fftSize), &powerLeft, &powerRight, &crossReal,
                    &crossImaginary)
            }
        }
        guard status == CVISION_OK else {
            return SpectralMeasures(snrDecibels: 0, harmonicity: 0, voiced: false, direction: nil, coherence: nil)
        }
        // The floor: minimum statistics of the smoothed power.
        var power = [Double](repeating: 0, count: count)
        for k in 0..<count {
            power[k] = 0.5 * (Double(powerLeft[k]) + Double(powerRight[k])) + 1e-12
            smoothed[k] = smoothed[k] == 0 ? power[k] : 0.7 * smoothed[k] + 0.3 * power[k]
            blockMinimum[k] = min(blockMinimum[k], smoothed[k])
        }
        inBlock += 1
        if inBlock == blockLength {
            blocks.append(blockMinimum)
            if blocks.count > blockCount { blocks.removeFirst() }
            blockMinimum = [Double](repeating: .infinity, count: count)
            inBlock = 0
        }
        // The least of the remembered blocks and the one being filled, raised by the bias a
        // minimum of a fluctuating power has (about 3 dB for this smoothing).
        var floor = blockMinimum
        for block in blocks { for k in 0..<count { floor[k] = min(floor[k], block[k]) } }
        for k in 0..<count { floor[k] = floor[k].isFinite ? 2 * floor[k] : power[k] }

        var signal = 0.0
        var noise = 0.0
        for k in bins {
            signal += power[k]
            noise += floor[k]
        }
        let snr = 10 * log10(signal / max(noise, 1e-20))
        let correlation = Self.pitchCorrelation(
            power: power, floor: floor, bins: pitchBins, lags: pitchLags.count, table: pitchCos)
        // Over the last three stretches: a voice holds its pitch that long, while the peaks a
        // noise's random spectrum makes fall at other lags each time.
        recentCorrelations.append(correlation)
        if recentCorrelations.count > 3 { recentCorrelations.removeFirst() }
        var harmonicity = 0.0
        for lag in 0..<pitchLags.count {
            harmonicity = max(
                harmonicity, recentCorrelations.reduce(0) { $0 + $1[lag] } / Double(recentCorrelations.count))
        }
        let voiced = snr >= minimumSNR && harmonicity >= minimumHarmonicity
        var direction: Double?
        var coherence: Double?
        if stereo && voiced {
            (direction, coherence) = steer(
                power: power, floor: floor, crossReal: crossReal, crossImaginary: crossImaginary)
        }
        // The noise's cross-spectrum, learnt while the band is near its floor.
        if isSettled && snr < 3 {
            let rate = noiseWindows < 50 ? 1 / Double(noiseWindows + 1) : 0.02
            for k in bins {
                noiseCrossReal[k] += rate * (Double(crossReal[k]) - noiseCrossReal[k])
                noiseCrossImaginary[k] += rate * (Double(crossImaginary[k]) - noiseCrossImaginary[k])
            }
            noiseWindows += 1
        }
        previous = power
        return SpectralMeasures(
            snrDecibels: snr, harmonicity: harmonicity, voiced: voiced, direction: direction, coherence: coherence)
    }

    /// The autocorrelation of the power above the floor at each pitch lag, against its value at 0.
    static func pitchCorrelation(power: [Double], floor: [Double], bins: Range<Int>, lags: Int, table: [Float])
        -> [Double]
    {
        var clean = [Double](repeating: 0, count: bins.count)
        var zero = 0.0
        for (i, k) in bins.enumerated() {
            clean[i] = max(0, power[k] - floor[k])
            zero += clean[i]
        }
        guard zero > 0 else { return [Double](repeating: 0, count: lags) }
        return (0..<lags).map { lag in
            var r = 0.0
            let row = lag * bins.count
            for i in 0..<bins.count { r += clean[i] * Double(table[row + i]) }
            return r / zero
        }
    }

    /// Steered response power over candidate angles: each bin's cross-spectrum less the noise's,
    /// whitened, weighted by the bin's SNR and by its rise over the last stretch.
    private func steer(power: [Double], floor: [Double], crossReal: [Float], crossImaginary: [Float]) -> (
        Double?, Double?
    ) {
        var weightedReal = [Float](repeating: 0, count: bins.count)
        var weightedImaginary = [Float](repeating: 0, count: bins.count)
        var total = 0.0
        for (i, k) in bins.enumerated() {
            let gamma = power[k] / floor[k]
            guard gamma > 2 else { continue }
            let re = Double(crossReal[k]) - noiseCrossReal[k]
            let im = Double(crossImaginary[k]) - noiseCrossImaginary[k]
            let magnitude = (re * re + im * im).squareRoot()
            guard magnitude > 0 else { continue }
            let snrWeight = 1 - 1 / gamma
            let rise = previous[k] > 0 ? min(1, max(0.1, 1 - previous[k] / power[k])) : 1
            let w = snrWeight * rise
            weightedReal[i] = Float(w * re / magnitude)
            weightedImaginary[i] = Float(w * im / magnitude)
            total += w
        }
        guard total > 0 else { return (nil, nil) }
        var scores = [Double](repeating: 0, count: angles.count)
        for a in angles.indices {
            let row = a * bins.count
            var r: Float = 0
            for i in 0..<bins.count {
                // Re(G · e^{+j2πfτ}): the left channel's lag undone.
                r += weightedReal[i] * steerCos[row + i] - weightedImaginary[i] * steerSin[row + i]
            }
            scores[a] = Double(r)
        }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else { return (nil, nil) }
        var angle = angles[best]
        if best > 0 && best < angles.count - 1 {
            let y0 = scores[best - 1]
            let y1 = scores[best]
            let y2 = scores[best + 1]
            let d = y0 - 2 * y1 + y2
            if abs(d) > 1e-12 { angle += max(-0.5, min(0.5, 0.5 * (y0 - y2) / d)) * (angles[1] - angles[0]) }
        }
        return (angle, max(0, scores[best] / total))
    }
}
