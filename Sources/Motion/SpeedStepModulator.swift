import DockCore

/// Speeds below a device's slowest speed step, as a duty cycle of that step. A head that only
/// knows whole steps rounds a slower command to a stop (or up to a whole step), so slow
/// following would be stop-and-go by construction; here the axis runs at one step for the share
/// of the time that makes its average the commanded speed (1°/s on a head whose slowest speed is
/// 4°/s: one tick in four), the angle owed carried from tick to tick. At or above one step the
/// command passes unchanged (the device's rounding is then within half a step), and a stop is
/// a stop at once.
public struct SpeedStepModulator: Sendable {
    private var owed = Vector3D()
    private var last: (time: MonotonicInstant, target: Vector3D, output: Vector3D)?
    /// The owed angle is bounded (rad): a device that could not follow does not bank a surge.
    static let maximumOwed = 0.02

    public init() {}

    /// What to send for `velocity` at `time`, given the device's speed step (rad/s; nil or 0 =
    /// continuous).
    public mutating func output(for velocity: Vector3D, step: Double?, at time: MonotonicInstant) -> Vector3D {
        guard let step, step > 0 else { return velocity }
        let interval = last.map { min(max(time.seconds(since: $0.time), 0), 0.2) } ?? 0
        if let last {
            owed = owed + (last.target - last.output) * interval
        }
        // The coming interval is taken to be as long as the last one (the control rate is steady).
        let ahead = interval > 0 ? interval : 1.0 / 30
        func axis(_ v: Double, before: Double, _ owed: inout Double) -> Double {
            guard v != 0, abs(v) < step else {
                owed = 0
                return v
            }
            if v * before < 0 { owed = 0 }  // turned round: nothing is owed the new way
            owed = min(max(owed, -Self.maximumOwed), Self.maximumOwed)
            let sign: Double = v > 0 ? 1 : -1
            return sign * owed + abs(v) * ahead >= step * ahead / 2 ? sign * step : 0
        }
        let before = last?.target ?? Vector3D()
        let out = Vector3D(
            x: axis(velocity.x, before: before.x, &owed.x), y: axis(velocity.y, before: before.y, &owed.y),
            z: axis(velocity.z, before: before.z, &owed.z))
        last = (time, velocity, out)
        return out
    }
}
