import Foundation

/// Voice activity per short window, from the window's energy against an adaptive noise floor
/// and its zero-crossing rate (speech is voiced and mostly below 1 kHz; hiss and clicks cross
/// zero far more often). Pure: feed windows in order.
public struct VoiceActivityDetector: Sendable {
    public struct Decision: Sendable, Hashable {
        public var energyDecibels: Double
        public var floorDecibels: Double
        public var zeroCrossingRate: Double
        public var isSpeech: Bool
    }

    /// Speech must rise this far above the noise floor (dB).
    public var margin = 10.0
    /// Windows above this zero-crossing rate (crossings per sample) are not voiced.
    public var maximumZeroCrossingRate = 0.25
    /// How fast the floor rises towards the level while nobody speaks (dB per second); it falls at once.
    public var floorRise = 3.0
    /// Speech continues this long after the last voiced window (s): syllable gaps are speech.
    public var hangover = 0.25
    public let windowSeconds: Double

    private var floor: Double?
    private var sinceVoiced = Double.infinity

    public init(windowSeconds: Double = 0.02) { self.windowSeconds = windowSeconds }

    public mutating func update(_ samples: ArraySlice<Float>) -> Decision {
        guard !samples.isEmpty else {
            return Decision(energyDecibels: -120, floorDecibels: floor ?? -120, zeroCrossingRate: 0, isSpeech: false)
        }
        var sum = 0.0
        var crossings = 0
        var previous = samples.first!
        for s in samples {
            sum += Double(s) * Double(s)
            if (s >= 0) != (previous >= 0) { crossings += 1 }
            previous = s
        }
        let energy = 10 * log10(sum / Double(samples.count) + 1e-12)
        let zcr = Double(crossings) / Double(samples.count)
        var level = floor ?? energy
        if energy < level { level = energy } else { level += min(energy - level, floorRise * windowSeconds) }
        floor = level
        let voiced = energy > level + margin && zcr < maximumZeroCrossingRate
        sinceVoiced = voiced ? 0 : sinceVoiced + windowSeconds
        return Decision(
            energyDecibels: energy, floorDecibels: level, zeroCrossingRate: zcr, isSpeech: sinceVoiced <= hangover)
    }
}
