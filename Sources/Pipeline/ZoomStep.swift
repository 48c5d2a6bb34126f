import Control
import DockCore
import Foundation
import Motion

/// Whether the engine drives the camera's optical zoom.
public enum ZoomChoice: String, Sendable, CaseIterable {
    /// The zoom is left where it is: no command goes to it.
    case off
    /// The framed face is kept at a chosen share of the picture's height.
    case auto
}

/// The zoom's figures, shared with whoever reports them.
struct ZoomFigures: Sendable {
    var moves = 0
    var failures = 0
    var lastFailure: String?
}

/// Each new frame's framed face → the zoom follower → the lens. The frame's zoom is read from
/// its intrinsics against the widest lens's, so what the follower sees is what the frame saw.
struct ZoomStep {
    private var follower: ZoomFollower
    let drive: any ZoomDrive
    /// The camera at the widest zoom.
    let widest: CameraIntrinsics
    let figures: Protected<ZoomFigures>
    /// Presses of the zoom keys (DockKit's `cameraZoom` events) not yet acted on.
    let presses: Protected<[Double]>
    /// The subject's motion across the room, per axis, and whose it is.
    private var motion: (id: Int, yaw: SubjectMotionEstimate, pitch: SubjectMotionEstimate)?

    init(
        drive: any ZoomDrive, faceShare: Double, widest: CameraIntrinsics, figures: Protected<ZoomFigures>,
        presses: Protected<[Double]> = Protected([])
    ) {
        var settings = ZoomFollower.Settings()
        settings.faceShare = faceShare
        follower = ZoomFollower(settings: settings, range: drive.range)
        self.drive = drive
        self.widest = widest
        self.figures = figures
        self.presses = presses
    }

    /// Takes a new frame's sighting; commands the lens when the follower picks a new factor.
    mutating func observe(_ target: ControlTarget, _ sighting: FramedSighting, at now: MonotonicInstant) {
        record { try drive.update(at: now) }
        let time = target.stamp.time.seconds(since: .zero)
        let pressed = presses.withLock { p in
            defer { p.removeAll() }
            return p
        }
        for direction in pressed {
            guard let factor = follower.press(direction, at: time) else { continue }
            record {
                try drive.zoom(to: factor, at: now)
                figures.withLock { $0.moves += 1 }
            }
        }
        let zoom = target.camera.intrinsics.fx / widest.fx
        var sample = ZoomFollower.Sample(time: time, faceShare: nil, zoom: zoom)
        if let subject = sighting.subject {
            // A body gives no face size to go by: the zoom holds until a face is seen again; so
            // does a face not detected in this very frame.
            guard subject.kind == .humanFace, let offset = sighting.offset else { return }
            let rect = subject.observedRect
            sample.faceShare = rect.height
            sample.offCentre = 2 * max(abs(rect.midX - 0.5), abs(rect.midY - 0.5))
            sample.speed = speed(
                of: subject.id, at: time, yaw: target.pose.y + offset.yaw, pitch: target.pose.x + offset.pitch)
        } else {
            motion = nil
        }
        guard let factor = follower.observe(sample) else { return }
        record {
            try drive.zoom(to: factor, at: now)
            figures.withLock { $0.moves += 1 }
        }
    }

    /// Runs a command to the lens; a failure is counted and kept, and the run goes on.
    private func record(_ command: () throws -> Void) {
        do { try command() } catch {
            figures.withLock {
                $0.failures += 1
                $0.lastFailure = "\(error)"
            }
        }
    }

    /// The subject's angular speed across the room (rad/s): its direction (the head's reading
    /// plus its place in the picture) followed per axis, as the control law follows it.
    private mutating func speed(of id: Int, at time: Double, yaw: Double, pitch: Double) -> Double {
        if motion?.id != id { motion = (id, SubjectMotionEstimate(), SubjectMotionEstimate()) }
        motion!.yaw.add(angle: yaw, at: time)
        motion!.pitch.add(angle: pitch, at: time)
        return hypot(motion!.yaw.rate, motion!.pitch.rate)
    }
}
