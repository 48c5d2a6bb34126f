import DockCore
import Foundation

/// How a simulated zoom lens behaves: its range, how fast it moves (doublings of the focal
/// length per second, as a motor zoom drives at a steady rate in log terms) and the delay
/// before a command takes effect.
public struct ZoomLensModel: Sendable, Hashable {
    public var maximumFactor: Double
    public var doublingsPerSecond: Double
    public var latency: Double
    /// Where the lens is when the run starts.
    public var startFactor = 1.0

    public init(maximumFactor: Double = 4, doublingsPerSecond: Double = 1, latency: Double = 0.1) {
        self.maximumFactor = maximumFactor
        self.doublingsPerSecond = doublingsPerSecond
        self.latency = latency
    }
}

/// A motor zoom in virtual time: a command takes effect after the model's latency, then the
/// factor moves toward it at the model's rate. Time moves only when someone asks for a time.
public final class SimulatedZoomLens: ZoomDrive {
    public let name = "simulated zoom lens"
    public let model: ZoomLensModel
    private struct State {
        var time: MonotonicInstant
        var logFactor: Double
        /// Commands not yet in effect: (when they take effect, log of the factor).
        var pending: [(MonotonicInstant, Double)] = []
        var target: Double
    }
    private let state: Protected<State>

    public init(model: ZoomLensModel = ZoomLensModel(), start: MonotonicInstant = .zero) {
        self.model = model
        let log0 = log(min(max(model.startFactor, 1), model.maximumFactor))
        state = Protected(State(time: start, logFactor: log0, target: log0))
    }

    public var range: ClosedRange<Double> { 1...model.maximumFactor }

    public func zoom(to factor: Double, at time: MonotonicInstant) throws {
        let target = log(min(max(factor, 1), model.maximumFactor))
        let effective = MonotonicInstant(nanoseconds: time.nanoseconds + Int64(model.latency * 1e9))
        state.withLock { $0.pending.append((effective, target)) }
    }

    public func factor(at time: MonotonicInstant) -> Double {
        state.withLock { s in
            advance(&s, to: time)
            return exp(s.logFactor)
        }
    }

    private func advance(_ s: inout State, to time: MonotonicInstant) {
        let rate = model.doublingsPerSecond * log(2)
        // Each pending command takes over at its time; the lens moves toward the target in force.
        while true {
            if let first = s.pending.first, first.0 <= s.time {
                s.target = first.1
                s.pending.removeFirst()
                continue
            }
            guard s.time < time else { return }
            let next = s.pending.first.map { min($0.0, time) } ?? time
            let step = next.seconds(since: s.time)
            s.logFactor += max(-rate * step, min(rate * step, s.target - s.logFactor))
            s.time = next
        }
    }
}
