import DockCore

/// The stages a run's timings name: one list for every rig, so the benchmark's columns and the
/// live figures read the same names.
public enum Stage: String, Sendable, CaseIterable {
    /// Waiting for the frame from the source.
    case source
    /// Detection, tracking and selection on the frame, less any wait for the slow detectors.
    case detect
    /// Waiting for the slow detectors' results due with the frame.
    case lateWait = "late wait"
    /// Handing the frame's result to control (in lock-step, the control ticks up to the next frame).
    case control
    /// Perception and control of one frame.
    case pipeline
    /// One frame from its arrival to the end of its sinks; its rate is the frame rate.
    case frame
    /// A frame's age when perception starts on it (real time only: lock-step runs in media time).
    case captureToReady = "capture→ready"
    /// A frame's age when its result goes to control (real time only).
    case captureToTracked = "capture→tracked"
    /// From a frame's capture to the first motor command its result produced.
    case captureToCommand = "capture→command"
    /// From a frame's capture to its copy on the video out.
    case captureToOutput = "capture→output"
}

extension StageTimings {
    public mutating func record(_ stage: Stage, milliseconds: Double) {
        record(stage.rawValue, milliseconds: milliseconds)
    }
    public func percentiles(_ stage: Stage) -> Percentiles { percentiles(stage.rawValue) }
}
