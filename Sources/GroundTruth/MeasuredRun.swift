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
    /// Runs with the ground truth recorded beside it, when the rig has one and the run keeps its
    /// frame records (a run of days keeps none).
    package func runMeasured(stop: StopFlag = StopFlag(), status: ((SessionStatus) -> Void)? = nil)
        throws(SessionError) -> MeasuredRun
    {
        let truth = configuration.keepFrameRecords ? TruthRecorder.attach(to: self) : nil
        let summary = try run(stop: stop, status: status)
        return MeasuredRun(summary: summary, metrics: truth?.metrics, frameSamples: truth?.samples ?? [])
    }
}
