import DockCore
import DockEngine

extension LocalDock {
    /// A client's `track` in DockKit's shapes: the observations and the camera turned into the
    /// engine's, the camera's check (`invalidParameter`) made where the engine would make it.
    @discardableResult
    package func clientTrack(
        _ observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double = 0
    ) throws(DockKitError) -> TrackOutcome {
        let unstamped = FrameStamp(sequence: 0, time: .zero)
        return try clientTrack(
            observations.map { $0.core(stamp: unstamped) }, camera: { () throws(DockKitError) in try camera.core() },
            age: age)
    }
}
