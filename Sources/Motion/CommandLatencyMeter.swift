import DockCore

/// Measures a device's command latency while it is used, from each start out of rest: the
/// first reported pose that has moved, set against the commands sent since the start. The
/// head turns at the rate it was sent `latency` earlier, so the latency is the delay at which
/// those commands add up to the distance it has moved by that report (neither the report
/// interval nor the moment within it then biases the figure). The estimate is the median of the
/// latest starts. A device's own figure is a guess for its family; a particular camera on a
/// particular link can be much slower, and the control law brakes and predicts with this one.
public struct CommandLatencyMeter: Sendable {
    public struct Settings: Sendable, Hashable {
        /// A reported pose this far (rad) from where the start found it has moved.
        public var moveThreshold = 0.1 * .pi / 180
        /// The axes count as at rest once the commands have been zero this long (s).
        public var restBefore = 0.3
        /// A start with no reported motion within this long (s) gives no sample.
        public var giveUpAfter = 0.6
        /// Samples needed before the estimate is used alone, and how many of the newest are kept.
        public var samplesNeeded = 3
        public var samplesKept = 9

        public init() {}
    }

    public let settings: Settings
    private struct Start {
        var pose: Vector3D
        /// The commands sent since the start (the first one starts it).
        var commands: [(time: MonotonicInstant, velocity: Vector3D)]
        var time: MonotonicInstant { commands[0].time }
    }
    private var pending: Start?
    /// When the axes were last told to stop after moving.
    private var stoppedAt: MonotonicInstant?
    private var commandWasZero = true
    private var lastPose: (pose: Vector3D, time: MonotonicInstant)?
    public private(set) var samples: [Double] = []

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The measured latency (s) from the starts seen so far; nil before the first.
    public var estimate: Double? {
        Self.median(samples)
    }

    /// Enough starts have been seen for the estimate to stand on its own.
    public var isSettled: Bool { samples.count >= settings.samplesNeeded }

    /// The latency to control with, given the device's own figure: the measured one once
    /// settled; before that, whichever is longer (assuming too little latency overshoots,
    /// too much only brakes a little early).
    public func latency(declared: Double) -> Double {
        guard let estimate else { return declared }
        return isSettled ? estimate : max(estimate, declared)
    }

    /// A pose the device reported (`state.time` is when it was true, or when it arrived).
    public mutating func reported(_ state: MotionState) {
        guard !state.isCommandedOnly else { return }
        if let last = lastPose, state.time <= last.time { return }
        lastPose = (state.angularPositions, state.time)
        guard let start = pending else { return }
        let elapsed = state.time.seconds(since: start.time)
        let moved = state.angularPositions - start.pose
        if elapsed > settings.giveUpAfter {
            pending = nil
        } else if elapsed > 0, max(abs(moved.x), abs(moved.y), abs(moved.z)) > settings.moveThreshold {
            if let delay = Self.delay(start.commands, moved: moved, at: state.time) {
                Self.remember(delay, in: &samples, keeping: settings.samplesKept)
            }
            pending = nil
        }
    }

    /// A command the device was sent at `time`.
    public mutating func sent(_ velocity: Vector3D, at time: MonotonicInstant) {
        let zero = velocity == Vector3D()
        defer {
            if zero && !commandWasZero { stoppedAt = time }
            commandWasZero = zero
        }
        if let start = pending {
            if time.seconds(since: start.time) > settings.giveUpAfter {
                pending = nil  // no report came in time (a device gone quiet): no sample
            } else {
                pending!.commands.append((time, velocity))
                return
            }
        }
        guard !zero, commandWasZero, let lastPose else { return }
        let restedFor = stoppedAt.map { time.seconds(since: $0) } ?? .infinity
        guard restedFor >= settings.restBefore, time.seconds(since: lastPose.time) < settings.restBefore else { return }
        pending = Start(pose: lastPose.pose, commands: [(time, velocity)])
    }

    private static func remember(_ value: Double, in list: inout [Double], keeping count: Int) {
        list.append(value)
        if list.count > count { list.removeFirst(list.count - count) }
    }

    /// The delay at which `commands` (each in force until the next) add up to `moved` by
    /// `time`, on the axis that moved most: the head covered exactly the distance they asked
    /// for up to `time − delay`. Nil when it moved further than they asked (something else
    /// moved it): that start says nothing about the latency.
    static func delay(
        _ commands: [(time: MonotonicInstant, velocity: Vector3D)], moved: Vector3D, at time: MonotonicInstant
    ) -> Double? {
        let axis: KeyPath<Vector3D, Double> =
            abs(moved.y) >= max(abs(moved.x), abs(moved.z)) ? \.y : abs(moved.x) >= abs(moved.z) ? \.x : \.z
        let distance = abs(moved[keyPath: axis])
        var covered = 0.0
        for (index, command) in commands.enumerated() where command.time < time {
            let end = index + 1 < commands.count ? min(commands[index + 1].time, time) : time
            let speed = abs(command.velocity[keyPath: axis])
            let span = end.seconds(since: command.time)
            if speed > 0 && covered + speed * span >= distance {
                let reached = command.time.advanced(bySeconds: (distance - covered) / speed)
                return max(0, time.seconds(since: reached))
            }
            covered += speed * span
        }
        return nil
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
