import Capture
import DockCore
import Foundation
import Motion

/// What feeds the pipeline and what it drives: the frame source, the motor backend, the sound
/// and the clock. The pipeline is the same for every rig; only these differ.
/// - the live rig: a V4L2 camera, a motor device (or none), ALSA microphones, the system clock;
/// - the simulated rig: a generated scene or a recording seen through a virtual camera on the
///   simulated gimbal (or the recording itself without one), the scene's sound, media time.
package final class Rig: @unchecked Sendable {
    package enum Timing: Sendable, Equatable {
        /// Capture thread → newest-only mailbox → perception; a control thread on the clock.
        case realTime
        /// One thread, frame by frame in media time: every run of a scene repeats exactly.
        case lockStep
    }

    package let timing: Timing
    /// The clock every stage reads: the system's for a camera, media time for a simulation.
    package let clock: any MonotonicClock
    /// In a simulation, media time as other threads read it (the control API's calls land on
    /// the simulated gimbal's timeline): started at the run's start in real time, moved to each
    /// frame's time in lock-step.
    package let mediaClock: MediaClock?
    package let backend: any MotorBackend
    /// The simulated gimbal, when the rig has one: lock-step control ticks advance it.
    package let gimbal: SimulatedGimbal?
    package let sourceSummary: String
    package let nominalFrameRate: Double
    /// Frames the run will have, when the source knows (a scene that does not loop, a file).
    package let totalFrames: Int?
    /// The camera's information when a frame carries none.
    package let camera: CameraInformation
    /// The camera's own picture, before any shrinking for detection (what video out shows).
    package let pictureSize: PixelSize
    /// The camera's optical zoom, when it has one the engine may drive.
    package let zoom: (any ZoomDrive)?
    package let sound: RigSound
    /// Camera events (docked, undocked) waiting to be logged.
    package let events: Protected<[CameraEvent]>
    /// Ends a wait for frames from another thread.
    package let cancel: @Sendable () -> Void
    /// Builds the frame source: on the capture thread in real time (which owns it from then
    /// on), on the caller's thread in lock-step. Called once.
    package let makeSource: @Sendable () throws(FrameSourceError) -> any FrameSource

    package init(
        timing: Timing, clock: any MonotonicClock, mediaClock: MediaClock?, backend: any MotorBackend,
        gimbal: SimulatedGimbal?,
        sourceSummary: String, nominalFrameRate: Double, totalFrames: Int?, camera: CameraInformation,
        pictureSize: PixelSize? = nil,
        zoom: (any ZoomDrive)? = nil, sound: RigSound,
        events: Protected<[CameraEvent]> = Protected([]), cancel: @escaping @Sendable () -> Void,
        makeSource: @escaping @Sendable () throws(FrameSourceError) -> any FrameSource
    ) {
        self.timing = timing
        self.clock = clock
        self.mediaClock = mediaClock
        self.backend = backend
        self.pictureSize = pictureSize ?? camera.referenceDimensions
        self.gimbal = gimbal
        self.sourceSummary = sourceSummary
        self.nominalFrameRate = nominalFrameRate
        self.totalFrames = totalFrames
        self.camera = camera
        self.zoom = zoom
        self.sound = sound
        self.events = events
        self.cancel = cancel
        self.makeSource = makeSource
    }
}

/// The rig's sound, ready for the perception step: whom it follows and with what.
package struct RigSound {
    package var follower: SpeakerFollower?
    package var input: (any AudioInput)?
    /// What the microphones give, or why the run goes on by vision alone.
    package var note: String?

    package init(follower: SpeakerFollower?, input: (any AudioInput)?, note: String?) {
        self.follower = follower
        self.input = input
        self.note = note
    }

    package static var none: RigSound { RigSound(follower: nil, input: nil, note: nil) }
}

/// Moves a value built on one thread to the thread that will own it from then on.
package final class UncheckedBox<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// Hands a frame source over once: whoever takes it owns it, and it closes (a camera releases
/// its device) as soon as that owner lets it go, not when the rig does.
package final class SourceHandOver: @unchecked Sendable {
    private let source: Protected<(any FrameSource)?>
    package init(_ source: any FrameSource) { self.source = Protected(source) }

    package func take() throws(FrameSourceError) -> any FrameSource {
        guard
            let taken = source.withLock({ s in
                defer { s = nil }
                return s
            })
        else {
            throw FrameSourceError("the rig's frame source was already taken: a rig runs once")
        }
        return taken
    }
}
