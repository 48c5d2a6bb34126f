import DockCore
import Foundation

extension NoiseKind {
    /// The sound over `count` samples. Stationary kinds sound throughout `spans` (all of it when
    /// empty); transient ones at each of `times` (typing over each span).
    func synthesize(count: Int, sampleRate: Double, spans: [TimeSpan], times: [Double], seed: UInt64) -> [Float] {
        var random = SeededGenerator(seed: seed)
        var out = [Float](repeating: 0, count: count)
        switch self {
        case .fan, .airConditioner, .projector:
            var pink = PinkNoise()
            var low = 0.0
            let hum = self == .airConditioner ? 60.0 : 110.0
            for n in 0..<count {
                let white = Double.random(in: -1...1, using: &random)
                let t = Double(n) / sampleRate
                var s = pink.next(white)
                if self == .airConditioner {
                    low += 0.02 * (white - low)
                    s = 0.5 * s + 4 * low
                }
                // The blades' hum, wavering a little.
                let wobble = 1 + 0.1 * sin(2 * .pi * 0.7 * t)
                s += 0.3 * wobble * (sin(2 * .pi * hum * t) + 0.5 * sin(4 * .pi * hum * t))
                if self == .projector { s += 0.15 * sin(2 * .pi * 2600 * t) }
                out[n] = Float(s)
            }
            if !spans.isEmpty {
                for n in 0..<count where !spans.contains(where: { $0.contains(Double(n) / sampleRate) }) { out[n] = 0 }
            }
        case .door:
            for time in times {
                let start = Int(time * sampleRate)
                for k in 0..<Int(0.4 * sampleRate) where start + k < count {
                    let t = Double(k) / sampleRate
                    let thump = sin(2 * .pi * 70 * t) * exp(-t / 0.08)
                    let click = k < Int(0.004 * sampleRate) ? Double.random(in: -1...1, using: &random) : 0
                    out[start + k] += Float(3 * thump + 2 * click)
                }
            }
        case .typing:
            for span in spans {
                var t = span.start
                while t < span.end {
                    let start = Int(t * sampleRate)
                    var ring = 0.0
                    for k in 0..<Int(0.006 * sampleRate) where start + k < count {
                        ring = 0.6 * ring + Double.random(in: -1...1, using: &random)
                        out[start + k] += Float(ring * exp(-Double(k) / (0.0015 * sampleRate)))
                    }
                    t += Double.random(in: 0.11...0.17, using: &random)
                }
            }
        case .cough:
            for time in times {
                for (offset, length) in [(0.0, 0.18), (0.26, 0.14)] {
                    burst(&out, at: time + offset, length: length, pitch: nil, sampleRate: sampleRate, random: &random)
                }
            }
        case .laughter:
            for time in times {
                for syllable in 0..<5 {
                    let at = time + Double(syllable) * 0.2
                    burst(&out, at: at, length: 0.05, pitch: nil, sampleRate: sampleRate, random: &random)
                    burst(
                        &out, at: at + 0.05, length: 0.09, pitch: 260 - 12 * Double(syllable), sampleRate: sampleRate,
                        random: &random)
                }
            }
        }
        return out
    }

    /// A breath (noise through a throat-like resonance) or, with a pitch, a voiced vowel: a
    /// pulse train through two formants; a quick rise and a slower fall.
    private func burst(
        _ out: inout [Float], at time: Double, length: Double, pitch: Double?, sampleRate: Double,
        random: inout SeededGenerator
    ) {
        let start = Int(time * sampleRate)
        let samples = Int(length * sampleRate)
        var formants = [
            Resonator(frequency: 700, bandwidth: 130, sampleRate: sampleRate),
            Resonator(frequency: 1200, bandwidth: 150, sampleRate: sampleRate),
        ]
        var phase = 0.0
        for k in 0..<samples where start + k < out.count {
            let t = Double(k) / Double(samples)
            let envelope = min(1, t / 0.1) * (1 - t) * (1 - t)
            var excitation = Double.random(in: -1...1, using: &random)
            if let pitch {
                phase += pitch / sampleRate
                excitation = phase.truncatingRemainder(dividingBy: 1) < 0.08 ? 4 : -0.35
                excitation += 0.2 * Double.random(in: -1...1, using: &random)
            }
            let voiced = formants[0].next(excitation) + 0.6 * formants[1].next(excitation)
            out[start + k] += Float(0.2 * envelope * voiced)
        }
    }
}

/// White noise through Paul Kellet's economical filter: −3 dB per octave.
struct PinkNoise {
    private var b = [Double](repeating: 0, count: 3)

    mutating func next(_ white: Double) -> Double {
        b[0] = 0.99765 * b[0] + white * 0.0990460
        b[1] = 0.96300 * b[1] + white * 0.2965164
        b[2] = 0.57000 * b[2] + white * 1.0526913
        return (b[0] + b[1] + b[2] + white * 0.1848) * 0.25
    }
}

/// A two-pole resonance (a formant).
struct Resonator {
    private let a1: Double
    private let a2: Double
    private let gain: Double
    private var y1 = 0.0
    private var y2 = 0.0

    init(frequency: Double, bandwidth: Double, sampleRate: Double) {
        let r = exp(-.pi * bandwidth / sampleRate)
        a1 = 2 * r * cos(2 * .pi * frequency / sampleRate)
        a2 = -r * r
        gain = 1 - r
    }

    mutating func next(_ x: Double) -> Double {
        let y = gain * x + a1 * y1 + a2 * y2
        y2 = y1
        y1 = y
        return y
    }
}
