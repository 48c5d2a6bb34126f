import DockCore
import Foundation

/// A UVC camera's zoom through its V4L2 controls. With `zoom_absolute` (proportional to the
/// focal length, as UVC defines it) the camera is told the value for a factor; with only
/// `zoom_continuous` it is told to zoom in or out at full speed and stopped at the target. A UVC
/// camera reports where it was told to go, not where its lens is, so the factor is an estimate:
/// it moves toward the target at `doublingsPerSecond`.
public final class UVCZoom: ZoomDrive {
    public enum Mode: Sendable, Equatable { case absolute, continuous }

    public let name: String
    public let mode: Mode
    public let range: ClosedRange<Double>
    private let port: any CameraControlPort
    private let control: (minimum: Int64, maximum: Int64, step: Int64)
    private let rate: Double

    private struct State {
        var logFactor: Double
        var target: Double
        var time: MonotonicInstant?
        /// Continuous mode: the direction the camera was last told to zoom (0 stopped).
        var moving = 0
    }
    private let state: Protected<State>

    /// Nil when the camera has neither a usable `zoom_absolute` (its minimum must be above 0 for
    /// the value to be a focal length) nor `zoom_continuous`. `continuousMaximum` is the factor a
    /// continuous-only camera is taken to reach (it cannot say).
    public init?(
        name: String, port: any CameraControlPort, doublingsPerSecond: Double = 1, continuousMaximum: Double = 4
    ) {
        self.name = name
        self.port = port
        rate = doublingsPerSecond * log(2)
        if let absolute = port.range(of: "zoom_absolute"), absolute.minimum > 0, absolute.maximum > absolute.minimum {
            mode = .absolute
            control = absolute
            range = 1...Double(absolute.maximum) / Double(absolute.minimum)
            let now = port.value(of: "zoom_absolute").map { Double($0) / Double(absolute.minimum) } ?? 1
            let start = log(min(max(now, 1), range.upperBound))
            state = Protected(State(logFactor: start, target: start))
        } else if let continuous = port.range(of: "zoom_continuous"), continuous.maximum > 0, continuous.minimum < 0 {
            mode = .continuous
            control = continuous
            range = 1...max(continuousMaximum, 1)
            // Where the lens is cannot be read: it is taken to be at the far end and driven
            // all the way out, after which the estimate is sound.
            state = Protected(State(logFactor: log(range.upperBound), target: 0))
        } else {
            return nil
        }
    }

    public func zoom(to factor: Double, at time: MonotonicInstant) throws {
        let target = log(min(max(factor, range.lowerBound), range.upperBound))
        state.withLock { $0.target = target }
        if mode == .absolute {
            let value = Double(control.minimum) * exp(target)
            try port.set("zoom_absolute", to: UVCPTZBackend.quantise(value, control))
        }
        try update(at: time)
    }

    public func factor(at time: MonotonicInstant) -> Double {
        state.withLock { s in
            advance(&s, to: time)
            return exp(s.logFactor)
        }
    }

    public func update(at time: MonotonicInstant) throws {
        guard mode == .continuous else { return }
        let command = state.withLock { s -> Int? in
            advance(&s, to: time)
            let wanted = abs(s.target - s.logFactor) < 0.01 ? 0 : (s.target > s.logFactor ? 1 : -1)
            guard wanted != s.moving else { return nil }
            s.moving = wanted
            return wanted
        }
        guard let command else { return }
        try port.set("zoom_continuous", to: command > 0 ? control.maximum : (command < 0 ? control.minimum : 0))
    }

    /// Moves the estimate to `time`: toward the target (absolute), or in the commanded
    /// direction, stopping at the target and the range's ends (continuous).
    private func advance(_ s: inout State, to time: MonotonicInstant) {
        defer { s.time = time }
        guard let last = s.time else { return }
        let step = rate * max(0, time.seconds(since: last))
        switch mode {
        case .absolute:
            s.logFactor += max(-step, min(step, s.target - s.logFactor))
        case .continuous:
            let moved = s.logFactor + Double(s.moving) * step
            let passed = s.moving > 0 ? moved >= s.target : (s.moving < 0 ? moved <= s.target : false)
            s.logFactor = min(max(passed ? s.target : moved, 0), log(range.upperBound))
        }
    }
}
