import DockCore
import Foundation

/// How much each person's lips move, 0…1, from a mouth measure per frame over a short window:
/// the swing of the mouth's opening (a talking mouth opens and closes several times a second)
/// or the mean of a mouth-motion measure, each against the value that counts as full activity.
public struct LipActivity: Sendable {
    public enum Statistic: Sendable { case variation, level }

    public let statistic: Statistic
    /// The swing or level that counts as fully active.
    public let reference: Double
    /// How far back the window reaches (s); a syllable lasts about 0.2 s.
    public var window = 0.6
    /// Fewer samples than this in the window say nothing.
    public var minimumSamples = 5
    private var samples: [UUID: [(time: MonotonicInstant, value: Double)]] = [:]

    public init(statistic: Statistic, reference: Double) {
        self.statistic = statistic
        self.reference = reference
    }

    public mutating func record(_ value: Double, for person: UUID, at time: MonotonicInstant) {
        var list = samples[person] ?? []
        list.append((time, value))
        list.removeAll { time.seconds(since: $0.time) > window }
        samples[person] = list
    }

    /// Activity of everyone measured recently; people not measured within the window are left out.
    public func activity(at time: MonotonicInstant) -> [UUID: Double] {
        var out: [UUID: Double] = [:]
        for (person, list) in samples {
            let recent = list.filter { time.seconds(since: $0.time) <= window }.map(\.value)
            guard recent.count >= minimumSamples else { continue }
            let mean = recent.reduce(0, +) / Double(recent.count)
            let value: Double
            switch statistic {
            case .level: value = mean
            case .variation:
                value = (recent.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(recent.count - 1)).squareRoot()
            }
            out[person] = min(1, value / reference)
        }
        return out
    }

    public mutating func forget(except present: Set<UUID>) {
        samples = samples.filter { present.contains($0.key) }
    }
}
