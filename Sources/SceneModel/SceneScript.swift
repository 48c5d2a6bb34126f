import Foundation

/// Where the subject's face is over time, as world angles (degrees; yaw positive right,
/// pitch positive down), linearly interpolated between keyframes.
public struct SceneScript: Sendable, Hashable {
    public struct Keyframe: Sendable, Hashable {
        public var time: Double
        public var yaw: Double
        public var pitch: Double

        public init(time: Double, yaw: Double, pitch: Double = 0) {
            self.time = time
            self.yaw = yaw
            self.pitch = pitch
        }
    }

    public var keyframes: [Keyframe]

    public init(keyframes: [Keyframe]) {
        precondition(
            !keyframes.isEmpty && zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.time < $1.time },
            "keyframes are in time order")
        self.keyframes = keyframes
    }

    public var duration: Double { keyframes.last!.time }

    /// Yaw and pitch in degrees at `time`.
    public func angles(at time: Double) -> (yaw: Double, pitch: Double) {
        (
            interpolate(keyframes, at: time, time: \.time, value: \.yaw)!,
            interpolate(keyframes, at: time, time: \.time, value: \.pitch)!
        )
    }

    /// The demo: stands, walks right at about 0.5 m/s at 3 m, pauses, crosses to the left,
    /// pauses, returns to the middle.
    public static let walk = SceneScript(keyframes: [
        Keyframe(time: 0, yaw: 0), Keyframe(time: 1.5, yaw: 0),
        Keyframe(time: 4.0, yaw: 20, pitch: 1.5), Keyframe(time: 5.0, yaw: 20, pitch: 1.5),
        Keyframe(time: 9.0, yaw: -18, pitch: -1), Keyframe(time: 10.0, yaw: -18, pitch: -1),
        Keyframe(time: 12.0, yaw: 0),
    ])

    /// A subject that never moves.
    public static func still(yaw: Double = 0, pitch: Double = 0, duration: Double = 6) -> SceneScript {
        SceneScript(keyframes: [
            Keyframe(time: 0, yaw: yaw, pitch: pitch), Keyframe(time: duration, yaw: yaw, pitch: pitch),
        ])
    }
}
