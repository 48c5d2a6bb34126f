import DockCore
import Foundation

/// A dock in this process, as `DockAccessory` and the manager drive it: the engine's
/// (`DockEngine`'s `LocalDock`, made one in `DockKitInProcess`); dockd's docks come through
/// `RemoteDock`. DockKit links no engine: only these calls, in the core's values.
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

extension InProcessDock {
    /// A client's `track` in DockKit's shapes: the observations and the camera turned into the
    /// core's, the camera's check (`invalidParameter`) made where the engine would make it.
    package func clientTrack(
        _ observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double = 0
    ) throws(DockKitError) {
        try track(observations.unstamped, camera: { () throws(DockKitError) in try camera.core() }, age: age)
    }
}

/// How a program makes the simulated gimbal of its own (`OPENDOCK_GIMBAL=sim`): registered as
/// the program loads when it links OpenDock's in-process docks (`DockKitInProcess`); without
/// them there is none, and a program asking for one is told so.
package enum SimulatedDocks {
    private static let maker = Protected<(@Sendable () -> any InProcessDock)?>(nil)

    package static func register(_ make: @escaping @Sendable () -> any InProcessDock) {
        maker.withLock { $0 = make }
    }

    static func make() -> (any InProcessDock)? { maker.withLock { $0 }?() }
}

extension [DockAccessory.Observation] {
    /// The core's observations, for the dock that takes them to stamp with their age.
    package var unstamped: [DockCore.Observation] {
        let placeholder = FrameStamp(sequence: 0, time: .zero)
        return map { $0.core(stamp: placeholder) }
    }
}
