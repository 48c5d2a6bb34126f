import DockCore

/// The head's recent poses, to know where it pointed when a frame was captured. Bounded: it
/// keeps `capacity` samples, oldest dropped first.
public struct PoseHistory: Sendable {
    public let capacity: Int
    private var samples: [(time: MonotonicInstant, pose: Vector3D)] = []

    public init(capacity: Int = 128) { self.capacity = capacity }

    public mutating func record(_ pose: Vector3D, at time: MonotonicInstant) {
        if let last = samples.last, last.time >= time { samples.removeAll { $0.time >= time } }
        samples.append((time, pose))
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
    }

    /// The pose at `time`, interpolated between samples; nil outside the recorded span.
    public func pose(at time: MonotonicInstant) -> Vector3D? {
        guard let first = samples.first, let last = samples.last, time >= first.time, time <= last.time else {
            return nil
        }
        guard let upper = samples.firstIndex(where: { $0.time >= time }) else { return nil }
        let b = samples[upper]
        if b.time == time || upper == 0 { return b.pose }
        let a = samples[upper - 1]
        let f = time.seconds(since: a.time) / b.time.seconds(since: a.time)
        return a.pose + (b.pose - a.pose) * f
    }
}
