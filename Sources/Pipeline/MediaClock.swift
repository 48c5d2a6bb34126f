import DockCore

/// A simulation's media time as a clock other threads can read: the media time of the frame in
/// progress plus the wall time since it started. The control API's calls (a velocity, a move)
/// are stamped on it, so they land on the simulated gimbal's timeline, not the system's.
package final class MediaClock: MonotonicClock, Sendable {
    private let anchor = Protected<(media: MonotonicInstant, wall: MonotonicInstant)?>(nil)
    private let wall = SystemMonotonicClock()

    package init() {}

    /// The frame at `media` starts now.
    package func mark(_ media: MonotonicInstant) { anchor.withLock { $0 = (media, wall.now) } }

    /// Media time now; zero before the first frame.
    package var now: MonotonicInstant {
        let wallNow = wall.now
        return anchor.withLock { $0.map { $0.media.advanced(bySeconds: wallNow.seconds(since: $0.wall)) } } ?? .zero
    }
}
