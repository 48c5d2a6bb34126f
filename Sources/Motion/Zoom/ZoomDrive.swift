import DockCore

/// A camera's optical zoom as the engine drives it, as a factor of the widest focal length
/// (1 = widest). The lens moves to a commanded factor at its own speed; `factor(at:)` is where
/// it reads now, which is what the picture's intrinsics follow.
public protocol ZoomDrive: AnyObject, Sendable {
    var name: String { get }
    /// The factors the lens can reach, from 1 (widest).
    var range: ClosedRange<Double> { get }
    /// Starts the lens toward `factor` (clamped to `range`).
    func zoom(to factor: Double, at time: MonotonicInstant) throws
    /// The factor the lens reports at `time`.
    func factor(at time: MonotonicInstant) -> Double
    /// Work the drive does as time passes (a continuous zoom stops at its target); called once
    /// a frame while the engine drives the zoom.
    func update(at time: MonotonicInstant) throws
}

extension ZoomDrive {
    public func update(at time: MonotonicInstant) throws {}
}
