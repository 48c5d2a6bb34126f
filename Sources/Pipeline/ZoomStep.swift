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
    /// The subject's direction in the room at the last frame, and its smoothed speed.
    private var lastDirection: (time: Double, id: Int, yaw: Double, pitch: Double)?
    private var speed = 0.0
    /// Seconds over which the subject's speed is averaged.
    private static let speedTimeConstant = 0.3

    init(drive: any ZoomDrive, faceShare: Double, widest: CameraIntrinsics, figures: Protected<ZoomFigures>) {
        var settings = ZoomFollower.Settings()
        settings.faceShare = faceShare
        follower = ZoomFollower(settings: settings, range: drive.range)
        self.drive = drive
        self.widest = widest
        self.figures = figures
    }

    /// Takes a new frame's target; commands the lens when the follower picks a new factor.
    mutating func observe(_ target: ControlTarget, at now: MonotonicInstant) {
        let time = target.stamp.time.seconds(since: .zero)
        let zoom = target.camera.intrinsics.fx / widest.fx
        let subject = target.sound == nil ? target.framed.first : nil
        var sample = ZoomFollower.Sample(time: time, faceShare: nil, zoom: zoom)
        if let subject {
            // A body gives no face size to go by: the zoom holds until a face is seen again.
            guard subject.kind == .humanFace else { return }
            // Its size counts only where it was detected in this very frame.
            guard subject.lastStamp == target.stamp else { return }
            let rect = subject.observedRect
            sample.faceShare = rect.height
            sample.offCentre = 2 * max(abs(rect.midX - 0.5), abs(rect.midY - 0.5))
            sample.speed = measureSpeed(subject.id, rect, target, time: time)
        } else {
            lastDirection = nil
        }
        guard let factor = follower.observe(sample) else { return }
        do {
            try drive.zoom(to: factor, at: now)
            figures.withLock { $0.moves += 1 }
        } catch {
            figures.withLock {
                $0.failures += 1
                $0.lastFailure = "\(error)"
            }
        }
    }

    /// The subject's angular speed across the room: its direction (the head's reading plus its
    /// place in the picture) differenced frame to frame, smoothed.
    private mutating func measureSpeed(
        _ id: Int, _ rect: NormalizedRect, _ target: ControlTarget, time: Double
    ) -> Double {
        let box = ImageCoordinates(size: target.camera.referenceDimensions).pixels(rect)
        let offset = AngularError.toCenter(
            PixelPoint(x: box.midX, y: box.midY), intrinsics: target.camera.intrinsics, pitch: target.pose.x)
        let direction = (yaw: target.pose.y + offset.yaw, pitch: target.pose.x + offset.pitch)
        defer { lastDirection = (time, id, direction.yaw, direction.pitch) }
        guard let last = lastDirection, last.id == id, time > last.time else {
            speed = 0
            return speed
        }
        let dt = time - last.time
        let instant = hypot(direction.yaw - last.yaw, direction.pitch - last.pitch) / dt
        let weight = 1 - exp(-dt / Self.speedTimeConstant)
        speed += weight * (instant - speed)
        return speed
    }
}
