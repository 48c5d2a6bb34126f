import Foundation
import DockCore

/// A subject the tracker follows across frames. Positions are normalized, lower-left origin.
public struct TrackedSubject: Sendable, Hashable {
    /// Small integer, unique within this tracker's lifetime; used as the DockKit observation id.
    public let id: Int
    /// Random, stable while tracked, never reused.
    public let uuid: UUID
    public var kind: ObservationKind
    /// The filtered rect, for association across frames.
    public var rect: NormalizedRect
    /// The rect exactly as last detected. The filter lags while the camera turns (image motion
    /// is then mostly the camera's own), so motor control uses this one.
    public var observedRect: NormalizedRect
    /// Velocity of the rect's centre, unit widths/heights per second.
    public var velocityX: Double
    public var velocityY: Double
    public var faceYaw: Double?
    public var confidence: Double
    /// Stamp of the frame of the last matched observation.
    public var lastStamp: FrameStamp
    public var hits: Int
    public var consecutiveMisses: Int

    /// The rect moved along the estimated velocity to `time`.
    public func predictedRect(at time: MonotonicInstant) -> NormalizedRect {
        let dt = max(0, time.seconds(since: lastStamp.time))
        var r = rect
        r.x += velocityX * dt
        r.y += velocityY * dt
        return r
    }
}
