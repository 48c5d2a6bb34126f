import Control
import DockCore
import Foundation
import Motion

/// What one `track` call did.
package struct TrackOutcome: Sendable {
    /// The rect framed (union of the observations), nil when there was nothing current.
    package var framedRect: NormalizedRect?
    /// The velocity sent to the motors after limits.
    package var command: Vector3D
}

/// The motor engine: a motorized stand in this process, with tracking, framing and motor control
/// over one `MotorBackend` (the rate contract, the control law's call, centring, presets,
/// motions, battery and parking). dockd drives one (its pipeline submits, its control API and
/// DockKit clients' sessions command it); a program of its own docks a simulated one. Clients
/// see it through a `DockAccessory`.
package final class LocalDock: Sendable {
    package let identifier: AccessoryIdentifier
    package let firmwareVersion: String?
    package let hardwareModel: String?

    package let motors: MotorController
    let director: MotionDirector
    let tracking = TrackingPublisher()
    package let events = Broadcast<AccessoryEvent>()
    package let batteries = Broadcast<BatteryState>()
    /// The head's battery, when it reports one.
    package let battery = BatteryWatch()
    private let clock: any MonotonicClock
    /// Observations older than this never drive the motors.
    package let freshness: Freshness

    private struct State {
        var rateContract = TrackRateContract()
        var law: any ControlLaw
        var poses = PoseHistory()
        var framing = FramingGeometry()
        var systemTrackingEnabled = true
        var trackCalls = 0
        var staleObservations = 0
        /// Where the last `track` call aimed the framed subject's centre (unit, lower-left).
        var aim: (x: Double, y: Double)?
        /// How far the framed subject's centre was from there, as angles (rad; yaw, pitch).
        var centeringError: (yaw: Double, pitch: Double)?
        var presets = PresetPoses()
    }
    private let state: Protected<State>

    package init(
        name: String, backend: any MotorBackend, clock: any MonotonicClock = SystemMonotonicClock(),
        controlLaw: any ControlLaw = FramingController(), freshness: Freshness = .observations,
        hardwareModel: String? = nil, firmwareVersion: String? = nil
    ) {
        identifier = AccessoryIdentifier(name: name, category: .trackingStand, uuid: UUID())
        self.hardwareModel = hardwareModel
        self.firmwareVersion = firmwareVersion
        self.clock = clock
        self.freshness = freshness
        motors = MotorController(backend: backend)
        director = MotionDirector(motors: motors)
        var initial = State(law: controlLaw)
        initial.presets.home = backend.motionState(at: clock.now).angularPositions
        state = Protected(initial)
    }

    /// Drives motions and the deadman from a thread of its own, every 10 ms on the accessory's
    /// clock, for as long as the accessory exists. Sessions that run their own control loop (the
    /// pipeline, simulations in virtual time) call `service(at:)` instead.
    package func startMotionLoop(interval: Double = 0.01) {
        let thread = Thread { [weak self] in
            while let accessory = self {
                accessory.service(at: accessory.clock.now)
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "opendock.motion"
        thread.start()
    }

    // MARK: Tracking

    /// A client's `track` (custom tracking): refused while system tracking is on, as DockKit
    /// does; observations aged `age` seconds when they arrive (0: seen now), stamped here.
    /// `camera` comes with the client's `camera()` check already passed (`invalidParameter`).
    @discardableResult
    package func clientTrack(
        _ observations: [Observation], camera: () throws(DockKitError) -> CameraInformation, age: Double = 0
    ) throws(DockKitError) -> TrackOutcome {
        guard !isSystemTrackingEnabled else { throw .notSupported }
        guard age.isFinite, age >= 0 else { throw .invalidParameter }
        let now = clock.now
        let stamp = FrameStamp(sequence: 0, time: now.advanced(bySeconds: -age))
        let information = try camera()
        // A camera on its side or upside down: its picture turned upright first.
        let turns = UprightView.quarterTurns(information.orientation)
        let upright = observations.map { observation in
            var stamped = observation
            stamped.stamp = stamp
            stamped.rect = UprightView.rect(stamped.rect, turns: turns)
            return stamped
        }
        return try submit(upright, camera: UprightView.camera(information, turns: turns), at: now)
    }

    /// The synchronous heart of `track`, used directly by the pipeline's control thread.
    /// `searching`: the law may look for a subject it lost (system tracking; not a client's own).
    /// `motion`: the head's reading the control tick took at `now`; a client's call reads it here.
    @discardableResult
    package func submit(
        _ observations: [DockCore.Observation], camera: DockCore.CameraInformation,
        motion reading: Motion.MotionState? = nil, at now: MonotonicInstant, searching: Bool = false
    ) throws(DockKitError) -> TrackOutcome {
        let motion = reading ?? motors.backend.motionState(at: now)
        let current = observations.filter { freshness.isFresh($0.stamp.time, at: now) }
        let framed = Self.union(current)
        let velocity = try state.withLock { state throws(DockKitError) -> Vector3D in
            try state.rateContract.record(now)
            state.trackCalls += 1
            state.staleObservations += observations.count - current.count
            state.poses.record(motion.angularPositions, at: now)
            let observedAt = current.map(\.stamp.time).max()
            let aim = state.framing.aimPoint(for: framed)
            state.aim = framed == nil ? nil : aim
            state.centeringError = framed.map { rect in
                let pixels = ImageCoordinates(size: camera.referenceDimensions)
                return AngularError.between(
                    pixels.pixels(x: rect.midX, y: rect.midY), pixels.pixels(x: aim.x, y: aim.y),
                    intrinsics: camera.intrinsics, pitch: motion.angularPositions.x)
            }
            return state.law.update(
                ControlInput(
                    target: framed, observedAt: observedAt, camera: camera,
                    pose: motion.angularPositions, velocity: motion.angularVelocities,
                    poseAtObservation: observedAt.flatMap { state.poses.pose(at: $0) },
                    framingPoint: aim, time: now, device: motors.capabilities, searchWhenLost: searching))
        }
        do {
            let sent = try motors.command(velocity, motion: motion, at: now)
            return TrackOutcome(framedRect: framed, command: sent)
        } catch {
            motors.stop(at: now)
            switch error {
            case .deviceSilent, .halted: throw .notConnected
            default: throw .invalidParameter
            }
        }
    }

    /// Observations refused for being older than `freshness` allows.
    package var staleObservationCount: Int { state.withLock { $0.staleObservations } }

    /// Tracking and motion states for listeners on threads of their own (the control API).
    package var trackingBroadcast: Broadcast<TrackingState> { tracking.states }
    package var motionBroadcast: Broadcast<AccessoryMotionState> { director.states }

    /// Whether the head reports a battery.
    package var reportsBattery: Bool { motors.backend.capabilities.reportsBattery }

    /// Now on the accessory's clock (a simulation's media time, or the system's).
    package var now: MonotonicInstant { clock.now }

    /// Where the motors are now.
    package var currentMotion: Motion.MotionState { motion(at: clock.now) }

    /// The head's reading at `now`: a control tick takes it once and hands it to `submit` and
    /// `service`, so every step of the tick decides on the same pose.
    package func motion(at now: MonotonicInstant) -> Motion.MotionState { motors.backend.motionState(at: now) }

    /// `track` calls accepted so far.
    package var trackCallCount: Int { state.withLock { $0.trackCalls } }

    /// Where the last `track` call aimed the framed subject (unit, lower-left); nil when it
    /// framed nothing.
    package var framingTarget: (x: Double, y: Double)? { state.withLock { $0.aim } }

    /// The framed subject's offset from the framing target at the last `track` call (rad).
    package var centeringError: (yaw: Double, pitch: Double)? { state.withLock { $0.centeringError } }

    // MARK: Framing

    package var framingMode: FramingMode { state.withLock { $0.framing.mode } }

    package func applyFramingMode(_ mode: FramingMode) {
        state.withLock { $0.framing.mode = mode }
    }

    /// Where subjects are kept: normalized, origin at the upper left; the whole frame by default.
    /// It applies to system and custom tracking alike, so switching system tracking off keeps
    /// it; it resets to the whole frame when the session's motors stop for good.
    package var regionOfInterest: CGRect { state.withLock { FramingGeometry.upperLeft($0.framing.region) } }

    /// The framing a session starts with (dockd's --framing and --region).
    package func configureFraming(mode: FramingMode, region: CGRect?) throws(DockKitError) {
        state.withLock { $0.framing.mode = mode }
        if let region { try setRegion(region) }
    }

    /// A region at least 5 % of the frame each way, inside the frame; anything else is refused.
    package func setRegion(_ region: CGRect) throws(DockKitError) {
        guard let converted = FramingGeometry.region(fromUpperLeft: region) else { throw .invalidParameter }
        state.withLock { $0.framing.region = converted }
    }

    // MARK: Motors

    package var limits: MotionLimits { motors.limits }

    /// The device's own limits, which a session's narrowing returns to.
    package var deviceLimits: MotionLimits { motors.backend.capabilities.limits }

    /// Narrows the device's limits for this session. An axis the device lacks is refused.
    package func setLimits(_ limits: MotionLimits) throws(DockKitError) {
        let device = motors.backend.capabilities.limits
        if (limits.yaw != nil && device.yaw == nil) || (limits.pitch != nil && device.pitch == nil)
            || (limits.roll != nil && device.roll == nil)
        {
            throw .notSupportedByDevice
        }
        motors.setLimits(limits)
    }

    package var isSystemTrackingEnabled: Bool {
        state.withLock { $0.systemTrackingEnabled }
    }

    package func setSystemTrackingEnabled(_ enabled: Bool) {
        state.withLock { state in
            // A client tracking on its own starts a rate contract of its own.
            if state.systemTrackingEnabled != enabled { state.rateContract.reset() }
            state.systemTrackingEnabled = enabled
        }
        director.cancel()
        motors.stop(at: clock.now)
    }

    /// Turns the axes at these rates (rad/s); `Vector3D()` stops. Refused while system tracking
    /// is on. Ends any orientation move or animation in progress.
    /// The velocity lasts until the next motor call (it is sent again on every control tick, so
    /// the deadman still stops the motors if the control loop stops).
    package func applyAngularVelocity(_ velocity: Vector3D) throws(DockKitError) {
        guard !isSystemTrackingEnabled else { throw .notSupported }
        guard velocity.isFinite else { throw .invalidParameter }
        director.hold(velocity)
        do { try motors.command(velocity, at: clock.now) } catch {
            director.cancel()
            throw .notConnected
        }
    }

    /// Moves to an orientation (radians; absolute, or relative to the current pose) along a
    /// smooth trajectory lasting `seconds`. The progress completes when the head has arrived.
    /// At most two motion calls per second; refused while system tracking is on.
    package func startOrientation(_ target: Vector3D, seconds: Double, relative: Bool) throws(DockKitError) -> Progress
    {
        guard !isSystemTrackingEnabled else { throw .notSupported }
        guard target.isFinite, seconds.isFinite, seconds >= 0, seconds <= 60 else { throw .invalidParameter }
        let now = clock.now
        let pose = motors.backend.motionState(at: now).angularPositions
        var goal = relative ? pose + target : target
        let limits = motors.limits
        goal.y = limits.yaw?.clampPosition(goal.y) ?? pose.y
        goal.x = limits.pitch?.clampPosition(goal.x) ?? pose.x
        goal.z = limits.roll?.clampPosition(goal.z) ?? pose.z
        return try director.start(.move(from: pose, to: goal, duration: seconds), at: now)
    }

    // MARK: Presets

    /// The home pose (nil = keep: where the head was when the dock was made) and the privacy
    /// pose (nil = keep: turned as far from the room as the limits allow, and down).
    package func configurePresets(home: Vector3D?, privacy: Vector3D?) {
        state.withLock { state in
            if let home { state.presets.home = home }
            if let privacy { state.presets.privacy = privacy }
        }
    }

    package func pose(of preset: Preset) -> Vector3D {
        state.withLock { $0.presets.pose(of: preset) }
    }

    /// Moves to the preset at a calm pace; the progress completes on arrival. Like every motion
    /// call it is refused while system tracking is on: the caller switches tracking off first
    /// (the control API does, for every accessory dockd serves), so the head stays there.
    package func goToPreset(_ preset: Preset) throws(DockKitError) -> Progress {
        let from = motors.backend.motionState(at: clock.now).angularPositions
        let to = pose(of: preset)
        let distance = max(abs(to.y - from.y), abs(to.x - from.x))
        let seconds = min(max(distance / PresetPoses.speed, 0.5), 10)
        return try startOrientation(to, seconds: seconds, relative: false)
    }

    /// Plays a canned motion from the current pose; the progress completes when it is back.
    package func startAnimation(_ motion: AccessoryAnimation) throws(DockKitError) -> Progress {
        guard !isSystemTrackingEnabled else { throw .notSupported }
        let now = clock.now
        let pose = motors.backend.motionState(at: now).angularPositions
        return try director.start(motion.motion.trajectory(from: pose), at: now)
    }

    /// Motion states, about 30 a second, for as long as the stream is held.
    package var motionStates: AsyncStream<AccessoryMotionState> { director.stream() }

    /// One control tick: runs any motion in progress, publishes the motion state and keeps the
    /// deadman honest. The pipeline's control loop (or the motion loop) calls it, with the
    /// head's reading the tick took (`motion(at:)`), or without to read it here.
    package func service(at now: MonotonicInstant, motion: Motion.MotionState? = nil) {
        director.service(motion ?? self.motion(at: now), at: now)
        if director.isActive { motors.pollFeedback(at: now) } else { motors.service(at: now) }
        if motors.backend.capabilities.reportsBattery, let report = battery.check(motors.backend.batteryVolts, at: now)
        {
            batteries.yield(report)
        }
    }

    /// Stops what a client set moving (a held velocity, a move, an animation); the settings stay.
    package func haltClientMotion() {
        director.cancel()
        motors.stop(at: clock.now)
    }

    /// Leaves the motors stopped (any motion in progress is abandoned).
    package func stopMotors(at now: MonotonicInstant) {
        state.withLock { $0.framing.region = FramingGeometry.fullFrame }
        director.cancel()
        motors.stop(at: now)
    }

    static func union(_ observations: [DockCore.Observation]) -> NormalizedRect? {
        guard let first = observations.first?.rect else { return nil }
        var minX = first.x
        var minY = first.y
        var maxX = first.x + first.width
        var maxY = first.y + first.height
        for o in observations.dropFirst() {
            minX = min(minX, o.rect.x)
            minY = min(minY, o.rect.y)
            maxX = max(maxX, o.rect.x + o.rect.width)
            maxY = max(maxY, o.rect.y + o.rect.height)
        }
        return NormalizedRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

extension LocalDock {
    /// The simulated gimbal a program docks of its own (`OPENDOCK_GIMBAL=sim`), on the system's
    /// clock, its motions driven from a thread of its own.
    package static func simulated() -> LocalDock {
        let clock = SystemMonotonicClock()
        let dock = LocalDock(
            name: "simulated gimbal", backend: SimulatedGimbal(start: clock.now), clock: clock,
            hardwareModel: "OpenDock simulator")
        dock.startMotionLoop()
        return dock
    }
}
