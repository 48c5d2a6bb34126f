import Control
import DockCore
import DockEngine
import Foundation
import Motion
import Tracking

/// What the perception step hands the control step: whom to frame, as of which frame.
struct ControlTarget: Sendable {
    var framed: [TrackedSubject]
    /// Someone talking where nobody is tracked: a target at the voice.
    var sound: NormalizedRect?
    var camera: CameraInformation
    var stamp: FrameStamp
    /// The head's reading when the frame was taken.
    var pose = Vector3D()
}

/// The control step's figures, shared by the control thread and whoever reports them.
struct ControlFigures: Sendable {
    /// Capture → command per track call that carried a subject seen in a frame no call had
    /// carried yet.
    var commandLatencies = StageTimings()
    var lastCommand = Vector3D()
    /// Why the tracking stopped for good, when the head ran away from the person.
    var runawayStop: String?
}

/// One control tick: the feeder's pacing (a fresh result at once, inside 10–30 Hz) →
/// `LocalDock.submit` → motor controller, then the accessory's own service (motions in
/// progress, the deadman). The same step runs on the live control thread and in lock-step.
struct ControlStep {
    private(set) var feeder: TrackFeeder
    let accessory: LocalDock
    let monitor: SessionMonitor
    let figures: Protected<ControlFigures>
    /// The newest frame a call has carried: a target from a newer one is fresh.
    private var lastCarried: FrameStamp?
    /// Watches for a head turning the camera away from whom it chases; it stops the tracking.
    private var wrongDirection = WrongDirectionGuard()
    /// The newest frame the guard has seen.
    private var lastWatched: FrameStamp?
    /// Said once when the guard stops the tracking (the pipeline logs it).
    let notices: Protected<[String]>
    /// The mount the head was configured with: the line names the other one.
    let mount: MountDirections
    /// The optical zoom, when the engine drives it.
    private var zoom: ZoomStep?

    init(
        feeder: TrackFeeder, accessory: LocalDock, monitor: SessionMonitor, figures: Protected<ControlFigures>,
        notices: Protected<[String]>, mount: MountDirections, zoom: ZoomStep? = nil
    ) {
        self.zoom = zoom
        self.notices = notices
        self.mount = mount
        self.feeder = feeder
        self.accessory = accessory
        self.monitor = monitor
        self.figures = figures
    }

    /// When a call can next go out with `target` (nil when none can: no target, or the
    /// client drives the motors; the caller then waits for a new target).
    func nextDue(for target: ControlTarget?) -> MonotonicInstant? {
        guard let target, accessory.isSystemTrackingEnabled else { return nil }
        return feeder.nextDue(fresh: target.stamp != lastCarried)
    }

    /// Runs the tick at `now`. `stopping` tells a refused call after a stop request (the motors
    /// are halted) from a broken rate contract.
    mutating func tick(at now: MonotonicInstant, target: ControlTarget?, stopping: Bool) {
        // The head is read once a tick: the law, the motor limits and the motion in progress
        // all decide on this one reading.
        let motion = accessory.motion(at: now)
        defer { accessory.service(at: now, motion: motion) }
        // With system tracking off the client drives the motors; the pipeline only watches.
        guard let target, accessory.isSystemTrackingEnabled else { return }
        if target.stamp != lastWatched {
            lastWatched = target.stamp
            let sighting = FramedSighting(target)
            zoom?.observe(target, sighting, at: now)
            if let finding = watch(target, sighting) {
                stopRunningAway(finding)
                return
            }
        }
        let fresh = target.stamp != lastCarried
        guard feeder.isDue(at: now, fresh: fresh) else { return }
        let observations =
            target.sound.map {
                [Observation(identifier: -1, kind: .humanBody, rect: $0, confidence: 1, stamp: target.stamp)]
            }
            ?? feeder.observations(for: target.framed, at: now)
        do {
            let outcome = try accessory.submit(
                observations, camera: target.camera, motion: motion, at: now, searching: true)
            // Latency is counted for subjects seen in the newest frame; one carried on from an
            // older frame (missed by the detector in this one) would count its age instead.
            let carried = fresh && observations.contains { $0.stamp == target.stamp } ? target.stamp : nil
            lastCarried = target.stamp
            figures.withLock { f in
                f.lastCommand = outcome.command
                if let carried {
                    f.commandLatencies.record(.captureToCommand, milliseconds: now.seconds(since: carried.time) * 1000)
                }
            }
            monitor.recordTrackCall(latency: carried.map { now.seconds(since: $0.time) * 1000 })
        } catch {
            // A silent device is reported as such, and halted motors after a stop request
            // refuse commands: neither is a broken rate contract.
            guard error != .notConnected, !stopping else { return }
            monitor.recordRateContractError()
        }
    }

    /// Shows the guard a new frame's framed subject; a finding when the head is running away.
    /// Only a subject detected in this very frame counts, where it was detected.
    private mutating func watch(_ target: ControlTarget, _ sighting: FramedSighting) -> WrongDirectionGuard.Finding? {
        let time = target.stamp.time.seconds(since: .zero)
        guard let subject = sighting.subject else {
            return wrongDirection.observe(time: time, subject: nil, pose: target.pose, offset: (0, 0))
        }
        guard let offset = sighting.offset else { return nil }
        return wrongDirection.observe(time: time, subject: subject.id, pose: target.pose, offset: offset)
    }

    /// Stops the tracking for good on a head running away from the person, and says what to do.
    private func stopRunningAway(_ finding: WrongDirectionGuard.Finding) {
        accessory.setSystemTrackingEnabled(false)
        let degrees = 180 / Double.pi
        let inverted = finding.axis == .pan ? mount.panInverted : mount.tiltInverted
        let setting =
            (finding.axis == .pan ? "--pan-direction " : "--tilt-direction ") + (inverted ? "normal" : "inverted")
        let axis = finding.axis.rawValue
        let turned = String(format: "%.1f°", finding.turned * degrees)
        let drifted = String(format: "%.1f°", abs(finding.drifted) * degrees)
        let line =
            "motors stopped: the head turned the camera away from the subject (\(axis) \(turned), the subject "
            + "\(drifted) further off): its \(axis) runs the other way on this mount; start again with \(setting)"
        figures.withLock {
            $0.runawayStop = line
            $0.lastCommand = Vector3D()
        }
        notices.withLock { $0.append(line) }
    }
}
