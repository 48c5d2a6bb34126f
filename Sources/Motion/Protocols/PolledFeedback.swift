import DockCore

/// What a device with polled position feedback last reported, what it was last told, and when
/// to ask it again. Shared by the serial and network backends.
struct PolledFeedback: Sendable {
    var pose: Vector3D?
    var poseTime: MonotonicInstant?
    var commanded = Vector3D()
    private var lastQuery: MonotonicInstant?
    /// The oldest query still unanswered, counted only once the device has answered before.
    private var unansweredSince: MonotonicInstant?

    /// True when `interval` seconds have passed since the last query (and then counts as asked).
    mutating func queryDue(at time: MonotonicInstant, interval: Double) -> Bool {
        if let last = lastQuery, time >= last, time.seconds(since: last) < interval { return false }
        lastQuery = time
        if pose != nil && unansweredSince == nil { unansweredSince = time }
        return true
    }

    /// How long the device has left a query unanswered, after answering before (a device that
    /// fell silent mid-run); nil while it answers, or if it never has.
    func silence(at time: MonotonicInstant) -> Double? {
        unansweredSince.map { max(0, time.seconds(since: $0)) }
    }

    mutating func report(_ pose: Vector3D, at time: MonotonicInstant) {
        self.pose = pose
        poseTime = time
        unansweredSince = nil
    }

    /// The last reported pose, or — before any report — the commanded rates, marked as such.
    func motionState(at time: MonotonicInstant) -> MotionState {
        guard let pose, let poseTime else {
            return MotionState(
                angularPositions: Vector3D(), angularVelocities: commanded, time: time, isCommandedOnly: true)
        }
        return MotionState(angularPositions: pose, angularVelocities: commanded, time: poseTime)
    }
}
