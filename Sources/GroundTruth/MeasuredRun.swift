import Bench
import DockCore
import Pipeline

/// A run and, when its rig knows where the people really were, its figures against them.
package struct MeasuredRun: Sendable {
    package var summary: SessionSummary
    /// The closed-loop figures (nil: no ground truth, or no frame records kept).
    package var metrics: LoopMetrics?
    /// Truth and decisions per frame (see `SceneEvaluation`); empty without ground truth.
    package var frameSamples: [FrameSample]
}

extension Pipeline {
    /// Runs, and gives the figures against the ground truth its rig recorded beside it (a
    /// simulated rig does when the run keeps its frame records; a run of days keeps none).
    package func runMeasured(stop: StopFlag = StopFlag(), status: ((SessionStatus) -> Void)? = nil)
        throws(SessionError) -> MeasuredRun
    {
        let truth = observers.lazy.compactMap { $0 as? TruthRecorder }.first
        let summary = try run(stop: stop, status: status)
        return MeasuredRun(summary: summary, metrics: truth?.metrics, frameSamples: truth?.samples ?? [])
    }
}
