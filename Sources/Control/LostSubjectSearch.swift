import DockCore

/// Where the head looks once the subject is lost, as a function of the time since it was last
/// seen (pure): first it keeps turning the way the subject was heading, up to `reach` past where
/// it was last seen (someone who walked out of the view is usually just beyond its edge); after
/// `sweepAfter` it sweeps back and forth around that direction; after `homeAfter` it goes home.
/// A subject that stood still is looked for where it stood.
public struct LostSubjectSearch: Sendable {
    public struct Settings: Sendable, Hashable {
        /// Off: a lost subject leaves the head where it is.
        public var enabled = true
        /// How far past its last seen direction the head follows a subject's exit (rad).
        public var reach = 25.0 * .pi / 180
        /// Seconds lost before sweeping, and the sweep: this far either side of the last seen
        /// direction (rad), at this speed (rad/s).
        public var sweepAfter = 3.0
        public var sweepAmplitude = 25.0 * .pi / 180
        public var sweepSpeed = 15.0 * .pi / 180
        /// Seconds lost before returning home; nil = stay.
        public var homeAfter: Double? = 8.0
        /// Fastest return home (rad/s): a calm move, not a swing.
        public var homeSpeed = 20.0 * .pi / 180

        public init() {}
    }

    public enum Phase: String, Sendable, Hashable {
        /// Following the way the subject went.
        case following
        case sweeping
        case home
    }

    /// Where to aim (radians, head angles), how fast that aim moves (rad/s), the fastest the
    /// head should turn getting there, and which phase this is.
    public struct Aim: Sendable, Hashable {
        public var yaw: Double
        public var pitch: Double
        public var yawRate: Double
        public var speedLimit: Double?
        public var phase: Phase
    }

    /// The subject when last seen: its direction and rates (rad, rad/s) at `time` (s).
    public struct Sighting: Sendable, Hashable {
        public var time: Double
        public var yaw: Double
        public var pitch: Double
        public var yawRate: Double

        public init(time: Double, yaw: Double, pitch: Double, yawRate: Double) {
            self.time = time
            self.yaw = yaw
            self.pitch = pitch
            self.yawRate = yawRate
        }
    }

    public let settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The aim `time` seconds after `last`, with `home` the pose to return to.
    public func aim(after last: Sighting, at time: Double, home: Vector3D) -> Aim {
        let lost = max(0, time - last.time)
        let direction: Double = last.yawRate > 0 ? 1 : last.yawRate < 0 ? -1 : 0
        if let homeAfter = settings.homeAfter, lost >= homeAfter {
            return Aim(yaw: home.y, pitch: home.x, yawRate: 0, speedLimit: settings.homeSpeed, phase: .home)
        }
        let travelled = last.yawRate * lost
        if lost < settings.sweepAfter || settings.sweepAmplitude <= 0 {
            // Along the subject's way until `reach` past where it was seen, then wait there.
            let capped = min(max(travelled, -settings.reach), settings.reach)
            let rate = abs(travelled) < settings.reach ? last.yawRate : 0
            return Aim(yaw: last.yaw + capped, pitch: last.pitch, yawRate: rate, speedLimit: nil, phase: .following)
        }
        // A triangle wave about the last seen direction, starting from where the following
        // left off and going on the same way.
        let a = settings.sweepAmplitude
        let start = min(max(direction * travelled, -a), a)
        let along = start + settings.sweepSpeed * (lost - settings.sweepAfter)
        let unfolded = (along + a).truncatingRemainder(dividingBy: 4 * a)
        let offset = unfolded <= 2 * a ? unfolded - a : 3 * a - unfolded
        let heading = unfolded <= 2 * a ? 1.0 : -1.0
        let sign = direction == 0 ? 1 : direction
        return Aim(
            yaw: last.yaw + sign * offset, pitch: last.pitch, yawRate: sign * heading * settings.sweepSpeed,
            speedLimit: nil, phase: .sweeping)
    }
}
