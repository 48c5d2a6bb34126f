import DockCore
import DockEngine
import DockKit

/// The engine's dock as DockKit drives a dock in this process.
extension LocalDock: InProcessDock {
    package func track(
        _ observations: [DockCore.Observation], camera: () throws(DockKitError) -> DockCore.CameraInformation,
        age: Double
    ) throws(DockKitError) {
        try clientTrack(observations, camera: camera, age: age)
    }

    package var accessoryEvents: AsyncStream<AccessoryEvent> { events.stream(buffer: 32) }

    package var batteryStates: AsyncStream<BatteryState> { batteries.stream(buffer: 8, first: battery.latestState) }

    /// A client's `track` in DockKit's shapes, with what the motors were told (dockd's sessions
    /// answer with it).
    @discardableResult
    package func clientTrack(
        _ observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double = 0
    ) throws(DockKitError) -> TrackOutcome {
        try clientTrack(observations.unstamped, camera: { () throws(DockKitError) in try camera.core() }, age: age)
    }
}
