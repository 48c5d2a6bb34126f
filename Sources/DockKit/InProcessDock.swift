import DockCore
import Foundation

/// A dock in this process, as `DockAccessory` and the manager drive it: the engine's
/// (`DockEngine`'s `LocalDock`, through `LocalDockBridge`); dockd's docks come through
/// `RemoteDock`. The public API names no engine type: only these calls, in the core's values.
package protocol InProcessDock: AnyObject, Sendable {
    var identifier: AccessoryIdentifier { get }
    var firmwareVersion: String? { get }
    var hardwareModel: String? { get }
    /// Now on the dock's clock (a simulation's media time, or the system's).
    var now: MonotonicInstant { get }

    /// A client's `track`, observations aged `age` seconds; `camera` checked where the engine
    /// would check it.
    func track(
        _ observations: [DockCore.Observation], camera: () throws(DockKitError) -> DockCore.CameraInformation,
        age: Double
    ) throws(DockKitError)
    var trackingStates: AsyncStream<TrackingState> { get }
    @discardableResult func lockSubject(at point: CGPoint) throws(DockKitError) -> UUID
    func lockSubjects(_ ids: [UUID]) throws(DockKitError)

    var framingMode: FramingMode { get }
    func applyFramingMode(_ mode: FramingMode)
    var regionOfInterest: CGRect { get }
    func setRegion(_ region: CGRect) throws(DockKitError)

    var isSystemTrackingEnabled: Bool { get }
    func setSystemTrackingEnabled(_ enabled: Bool)
    var limits: MotionLimits { get }
    func setLimits(_ limits: MotionLimits) throws(DockKitError)
    func applyAngularVelocity(_ velocity: Vector3D) throws(DockKitError)
    func startOrientation(_ target: Vector3D, seconds: Double, relative: Bool) throws(DockKitError) -> Progress
    func startAnimation(_ motion: AccessoryAnimation) throws(DockKitError) -> Progress
    var motionStates: AsyncStream<AccessoryMotionState> { get }

    /// Buttons, shutter, flip and zoom as they happen.
    var accessoryEvents: AsyncStream<AccessoryEvent> { get }
    /// Hands an input event to subscribers (an input device).
    func post(_ event: AccessoryEvent)
    var reportsBattery: Bool { get }
    /// Battery reports, the latest first.
    var batteryStates: AsyncStream<BatteryState> { get }
}
