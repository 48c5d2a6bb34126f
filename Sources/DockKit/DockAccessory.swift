import DockCore
import Foundation

/// A motorized stand. In dockd, and in a program that docks the simulated gimbal
/// (`OPENDOCK_GIMBAL=sim`), it is the engine's dock in the same process (`InProcessDock`); in any other program it is
/// the dock a running dockd serves, every member forwarded to dockd (`RemoteDock`).
public final class DockAccessory: Hashable, Sendable {
    package enum Backing: Sendable {
        case local(any InProcessDock)
        case remote(RemoteDock)
    }

    /// Two optionals rather than one enum with two payloads: LeakSanitizer cannot follow a
    /// reference stored with an enum's tag bits, and would call the dock leaked.
    private let localDock: (any InProcessDock)?
    private let remoteDock: RemoteDock?
    package var backing: Backing {
        if let localDock { .local(localDock) } else { .remote(remoteDock!) }
    }
    public let identifier: Identifier
    public let firmwareVersion: String?
    public let hardwareModel: String?

    package init(local dock: any InProcessDock) {
        localDock = dock
        remoteDock = nil
        identifier = dock.identifier
        firmwareVersion = dock.firmwareVersion
        hardwareModel = dock.hardwareModel
    }

    package init(remote dock: RemoteDock) {
        localDock = nil
        remoteDock = dock
        identifier = dock.identifier
        firmwareVersion = dock.firmwareVersion
        hardwareModel = dock.hardwareModel
    }

    /// The dock in this process, if it is one.
    package var local: (any InProcessDock)? { localDock }

    public static func == (a: DockAccessory, b: DockAccessory) -> Bool { a.identifier.uuid == b.identifier.uuid }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier.uuid) }

    // MARK: Custom tracking

    /// Frames the given observations (custom tracking). Call at a fixed rate between 10 and
    /// 30 Hz, with system tracking off (refused with `notSupported` while it is on); a rate
    /// outside the contract throws `frameRateTooLow` or `frameRateTooHigh`.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation) async throws {
        switch backing {
        case .local(let dock): try dock.clientTrack(observations, camera: cameraInformation)
        case .remote(let dock): try await dock.track(observations, camera: cameraInformation, age: 0)
        }
    }

    /// `track` with the frame the observations came from (DockKit takes a CMSampleBuffer; here
    /// OpenDock's `Frame`): its size stands in for `referenceDimensions` when those are not
    /// given, and its capture time dates the observations, so stale ones never move the motors.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation, image: Frame) async throws {
        try await track(observations, cameraInformation, size: image.size, captured: image.stamp.time)
    }

    /// `track` dated by the capture time of an image of `size`.
    func track(
        _ observations: [Observation], _ cameraInformation: CameraInformation, size: PixelSize,
        captured: MonotonicInstant
    ) async throws {
        var information = cameraInformation
        if information.referenceDimensions == nil {
            information.referenceDimensions = CGSize(width: size.width, height: size.height)
        }
        switch backing {
        case .local(let dock):
            let age = max(0, dock.now.seconds(since: captured))
            try dock.clientTrack(observations, camera: information, age: age)
        case .remote(let dock):
            // Frames carry CLOCK_MONOTONIC stamps, the clock this process and dockd share.
            let age = max(0, SystemMonotonicClock().now.seconds(since: captured))
            try await dock.track(observations, camera: information, age: age)
        }
    }

    // MARK: System tracking's subjects

    /// What the system tracker sees, ten times a second, as Apple's session emits it.
    public var trackingStates: TrackingStates {
        get throws {
            switch backing {
            case .local(let dock): dock.trackingStates
            case .remote(let dock): try Self.connected(dock).trackingStates()
            }
        }
    }

    /// Frames the subject under `point`: unit coordinates from the picture's top left, as Apple
    /// documents them (a tap's place in the view), unlike the subjects' rects, whose origin is
    /// the lower left. The smallest subject containing it wins (a face over its body).
    public func selectSubject(at point: CGPoint) async throws {
        let lowerLeft = CGPoint(x: point.x, y: 1 - point.y)
        switch backing {
        case .local(let dock): try dock.lockSubject(at: lowerLeft)
        case .remote(let dock): try await dock.send("select", ["x": Double(lowerLeft.x), "y": Double(lowerLeft.y)])
        }
    }

    /// Frames these subjects together while they are tracked; `[]` returns to automatic
    /// selection. Refused with `noSubjectFound` when none of them is tracked.
    public func selectSubjects(_ subjects: [UUID]) async throws {
        switch backing {
        case .local(let dock): try dock.lockSubjects(subjects)
        case .remote(let dock): try await dock.send("select", ["ids": subjects.map(\.uuidString)])
        }
    }

    // MARK: Framing

    public var framingMode: FramingMode {
        switch backing {
        case .local(let dock): dock.framingMode
        case .remote(let dock): dock.mirror.framingMode
        }
    }

    public func setFramingMode(_ mode: FramingMode) async throws {
        switch backing {
        case .local(let dock): dock.applyFramingMode(mode)
        case .remote(let dock): try await dock.send("framing", ["mode": ControlJSON.framingMode(mode)])
        }
    }

    /// Where subjects are kept: normalized, origin at the upper left; the whole frame by
    /// default. It applies to system and custom tracking alike.
    public var regionOfInterest: CGRect {
        switch backing {
        case .local(let dock): dock.regionOfInterest
        case .remote(let dock): dock.mirror.region
        }
    }

    /// A region at least 5 % of the frame each way, inside the frame; anything else is refused.
    public func setRegionOfInterest(_ region: CGRect) async throws {
        switch backing {
        case .local(let dock): try dock.setRegion(region)
        case .remote(let dock): try await dock.send("region", ControlJSON.rect(region))
        }
    }

    // MARK: Motors

    public var limits: Limits {
        switch backing {
        case .local(let dock): dock.limits
        case .remote(let dock): dock.mirror.limits
        }
    }

    /// Narrows the device's limits for this session; they revert when it ends. An axis the
    /// device lacks is refused, so are limits with no axis and limits set while system tracking
    /// is on.
    public func setLimits(_ limits: Limits) throws {
        // As Apple's: at least one axis, and only while the program drives the motors.
        guard limits.yaw != nil || limits.pitch != nil || limits.roll != nil else {
            throw DockKitError.invalidParameter
        }
        switch backing {
        case .local(let dock):
            guard !dock.isSystemTrackingEnabled else { throw DockKitError.notSupported }
            try dock.setLimits(limits)
        case .remote(let dock):
            guard !(try Self.connected(dock).mirror.systemTracking) else { throw DockKitError.notSupported }
            try dock.setLimits(limits)
        }
    }

    /// Turns the axes at these rates (rad/s; x pitch, y yaw, z roll); `Vector3D()` stops.
    /// Refused while system tracking is on.
    public func setAngularVelocity(_ velocity: Vector3D) async throws {
        switch backing {
        case .local(let dock): try dock.applyAngularVelocity(velocity)
        case .remote(let dock): try await dock.send("velocity", ControlJSON.vector(velocity))
        }
    }

    /// Moves to an orientation (radians: x pitch, y yaw, z roll; absolute, or relative to the
    /// current pose) along a smooth path lasting `duration` (0: as fast as the limits allow).
    /// Synchronous, as in Apple's SDK: the move starts at once and the progress completes when
    /// the head has arrived. At most two motion calls a second; refused while system tracking is
    /// on. On the in-process dock a refusal throws; through dockd the request is sent without
    /// waiting (a synchronous call must not block), so a refusal dockd gives cancels the progress.
    public func setOrientation(_ target: Vector3D, duration: Duration = .seconds(0), relative: Bool = false)
        throws -> Progress
    {
        switch backing {
        case .local(let dock):
            return try dock.startOrientation(target, seconds: Self.seconds(duration), relative: relative)
        case .remote(let dock):
            return try dock.startMotionNow("orientation", Self.orientation(target, duration, relative))
        }
    }

    /// The synchronous `setOrientation` with a rotation.
    public func setOrientation(_ target: Rotation3D, duration: Duration = .seconds(0), relative: Bool = false)
        throws -> Progress
    {
        try setOrientation(target.eulerAngles, duration: duration, relative: relative)
    }

    /// A dock dockd serves, while it does: one that went away throws `notConnected`.
    static func connected(_ dock: RemoteDock) throws(DockKitError) -> RemoteDock {
        guard !dock.isClosed else { throw .notConnected }
        return dock
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A session's `orientation` request.
    static func orientation(_ target: Vector3D, _ duration: Duration, _ relative: Bool) -> [String: Any] {
        var fields = ControlJSON.vector(target)
        fields["duration"] = seconds(duration)
        fields["relative"] = relative
        return fields
    }

    /// Plays a canned motion from the current pose; the progress completes when it is back.
    public func animate(motion: Animation) async throws -> Progress {
        switch backing {
        case .local(let dock): try dock.startAnimation(motion)
        case .remote(let dock): try await dock.startMotion("animate", ["motion": ControlJSON.animationName(motion)])
        }
    }

    /// Where the axes are and how fast they turn, about 30 times a second.
    public var motionStates: MotionStates {
        get throws {
            switch backing {
            case .local(let dock): dock.motionStates
            case .remote(let dock): try Self.connected(dock).motionStates()
            }
        }
    }

    // MARK: Events

    /// Buttons, shutter, flip and zoom from the dock's input devices, as they happen.
    public var accessoryEvents: AccessoryEvents {
        get throws {
            switch backing {
            case .local(let dock): dock.accessoryEvents
            case .remote(let dock): try Self.connected(dock).accessoryEvents()
            }
        }
    }

    /// Battery reports, as the device sends them. A dock whose head reports no battery throws
    /// `notSupportedByDevice`, as Apple's does.
    public var batteryStates: BatteryStates {
        get throws {
            switch backing {
            case .local(let dock):
                guard dock.reportsBattery else { throw DockKitError.notSupportedByDevice }
                return dock.batteryStates
            case .remote(let dock):
                guard try Self.connected(dock).reportsBattery else { throw DockKitError.notSupportedByDevice }
                return dock.batteryStates()
            }
        }
    }
}
