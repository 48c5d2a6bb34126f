import DockCore

/// Notices a head that turns the camera away from the subject it is steered toward: an axis
/// mounted the other way from the configured one. On a head that turns the right way, turning
/// by Δ moves a still subject by −Δ across the view; on an inverted axis by +Δ, so each
/// correction makes the error larger and the head runs away from the person. Fed each new
/// frame's reading of the head and where the framed subject sits in that frame; a pure state
/// machine, so tests drive it with made-up frames.
public struct WrongDirectionGuard: Sendable {
    public struct Settings: Sendable, Hashable {
        /// How far back the turn and the subject's drift are compared, seconds.
        public var window = 0.6
        /// The least turn that says anything (radians): below it detection jitter rules.
        public var minimumTurn = 0.07
        /// How much of the turn the subject must have drifted the same way: 1 on an inverted
        /// axis; on a right one, a subject outrunning the head by this much again.
        public var driftRatio = 0.6
        /// How much better "inverted" must explain where the subject is than "right" (the
        /// ratio of their bends from a straight line), and the least bend that is not detection
        /// jitter (radians, 0.2°).
        public var bendRatio = 2.0
        public var bendFloor = 0.0035
        public init() {}
    }

    public enum Axis: String, Sendable { case pan, tilt }

    /// An axis seen turning the camera away, with the evidence.
    public struct Finding: Sendable, Hashable {
        public var axis: Axis
        /// How far the head read it turned, and how far the subject drifted the same way in the view (radians).
        public var turned: Double
        public var drifted: Double
    }

    private struct Sample {
        var time: Double
        var pose: Vector3D
        var offset: (yaw: Double, pitch: Double)
    }

    public let settings: Settings
    private var samples: [Sample] = []
    private var subject: Int?

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// One frame: the head's reading when it was taken, and the framed subject (`subject` its
    /// identity, nil when nobody is framed) at `offset` from the view's centre — the turn that
    /// would centre it (positive yaw: right of centre; positive pitch: below). Returns a finding
    /// when the head's turning has been carrying the subject away.
    public mutating func observe(
        time: Double, subject: Int?, pose: Vector3D, offset: (yaw: Double, pitch: Double)
    ) -> Finding? {
        guard let subject else {
            samples.removeAll(keepingCapacity: true)
            self.subject = nil
            return nil
        }
        // A new subject is a new comparison: the offsets of two people say nothing of the head.
        if subject != self.subject { samples.removeAll(keepingCapacity: true) }
        self.subject = subject
        samples.append(Sample(time: time, pose: pose, offset: offset))
        samples.removeAll { time - $0.time > settings.window }
        guard let first = samples.first, let last = samples.last, samples.count >= 3 else { return nil }
        let axes: [(Axis, turned: Double, drifted: Double, before: Double)] = [
            (.pan, last.pose.y - first.pose.y, last.offset.yaw - first.offset.yaw, first.offset.yaw),
            (.tilt, last.pose.x - first.pose.x, last.offset.pitch - first.offset.pitch, first.offset.pitch),
        ]
        for (axis, turned, drifted, before) in axes where abs(turned) >= settings.minimumTurn {
            // The head turned toward where the subject was, and the subject moved further off that way.
            let chased = before * turned > 0
            guard chased, drifted * turned > 0, abs(drifted) >= settings.driftRatio * abs(turned) else { continue }
            if invertedExplainsBetter(axis) { return Finding(axis: axis, turned: turned, drifted: drifted) }
        }
        return nil
    }

    /// A subject outrunning a head that turns the right way drifts off too. What tells them
    /// apart is where the subject is in the room: the head's reading plus its offset on a right
    /// axis, minus it on an inverted one. A subject walks steadily, so the right one is close
    /// to a straight line in time while the head speeds up; the wrong one bends with the
    /// head's own speeding up. While the head turns at an even speed both are straight, and
    /// nothing is decided.
    private func invertedExplainsBetter(_ axis: Axis) -> Bool {
        let times = samples.map(\.time)
        let reading = samples.map { axis == .pan ? $0.pose.y : $0.pose.x }
        let offset = samples.map { axis == .pan ? $0.offset.yaw : $0.offset.pitch }
        guard let ifRight = StraightLine(x: times, y: zip(offset, reading).map { $0 + $1 })?.residual,
            let ifInverted = StraightLine(x: times, y: zip(offset, reading).map { $0 - $1 })?.residual
        else { return false }
        return ifRight > settings.bendFloor && ifRight > settings.bendRatio * ifInverted
    }
}
