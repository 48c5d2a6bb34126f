import DockCore
import Foundation
import Motion

/// What became of the move to a preset at the end of a run.
package enum ParkOutcome: Sendable, Equatable {
    /// At the preset's pose (radians, x = pitch, y = yaw; within the limits) after this long.
    case arrived(seconds: Double, pose: Vector3D)
    /// A second stop request came first: the motors were stopped where they were.
    case interrupted
    /// The preset was not reached in the time allowed: the motors were stopped.
    case timedOut
    /// A dry run (no motors), or the move could not start.
    case notMoved(String)
}

extension LocalDock {
    /// At the end of a run, after the motors were halted: system tracking off, the halt
    /// released for one calm move to `preset`, then halted again whatever happens. `abort` is
    /// asked at every tick (a second signal ends the move at once); the move gets `timeout`
    /// seconds of wall time. Blocks the calling thread (the main thread at exit).
    package func park(at preset: Preset, timeout: Double, abort: () -> Bool) -> ParkOutcome {
        guard !(motors.backend is NullMotorBackend) else { return .notMoved("no motors (dry run)") }
        setSystemTrackingEnabled(false)
        motors.releaseHalt()
        defer { motors.halt(at: now) }
        let progress: Progress
        do { progress = try goToPreset(preset) } catch { return .notMoved("\(error)") }
        let started = Date()
        while !progress.isFinished {
            if abort() {
                haltClientMotion()
                return .interrupted
            }
            if Date().timeIntervalSince(started) > timeout {
                haltClientMotion()
                return .timedOut
            }
            service(at: now)
            Thread.sleep(forTimeInterval: 1.0 / 30)
        }
        return .arrived(
            seconds: Date().timeIntervalSince(started), pose: motors.backend.motionState(at: now).angularPositions)
    }
}
