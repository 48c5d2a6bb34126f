import CVision
import Foundation

/// Where the microphones are: a pair `spacing` metres apart, left then right, either on the
/// camera (turning with the gimbal: angles are relative to the view) or fixed in the room at the
/// gimbal's pivot (angles are in the gimbal's yaw frame).
public struct MicrophoneArray: Sendable, Hashable {
    public enum Mounting: String, Sendable, Hashable, CaseIterable {
        case camera
        case room
    }

    public var spacing: Double
    public var mounting: Mounting
    /// The right microphone arrives on the first channel and the left on the second (a pair
    /// wired or mounted the other way round): read otherwise, every direction is mirrored and
    /// the head turns to the person opposite whoever speaks.
    public var swapped: Bool
    public static let speedOfSound = 343.0

    public init(spacing: Double = 0.15, mounting: Mounting = .room, swapped: Bool = false) {
        self.spacing = spacing
        self.mounting = mounting
        self.swapped = swapped
    }

    /// The channel that carries the left microphone, and the one that carries the right.
    public var leftChannel: Int { swapped ? 1 : 0 }
    public var rightChannel: Int { swapped ? 0 : 1 }

    /// How the pair is read, for the line a run prints at start.
    public var orderNote: String {
        swapped
            ? "microphones read right, left (--mic-order right-left)"
            : "microphones read left, right (if the head turns to the person opposite whoever speaks, the pair is the other way round: --mic-order right-left)"
    }

    /// The largest possible delay between the channels, seconds.
    public var maximumDelay: Double { spacing / Self.speedOfSound }

    /// The horizontal angle (radians, positive right) a delay of the left channel behind the
    /// right one means: sound from the right reaches the right microphone first.
    public func angle(forDelay seconds: Double) -> Double {
        asin(max(-1, min(1, seconds / maximumDelay)))
    }

    /// The delay (seconds, left behind right) a source at `angle` gives.
    public func delay(forAngle angle: Double) -> Double { maximumDelay * sin(angle) }
}

/// GCC-PHAT through OpenCV's DFT (CVision).
public enum GCCPHAT {
    /// The delay of `left` behind `right` in samples (sub-sample) within ±maxLag, and the peak of
    /// the whitened correlation (0…1: how clearly one source dominates). nil on bad input.
    public static func delay(left: ArraySlice<Float>, right: ArraySlice<Float>, maxLag: Int) -> (
        samples: Double, peak: Double
    )? {
        let count = min(left.count, right.count)
        guard count >= 8, maxLag >= 1, maxLag < count else { return nil }
        var lag = 0.0
        var peak = 0.0
        let status = Array(left.prefix(count)).withUnsafeBufferPointer { a in
            Array(right.prefix(count)).withUnsafeBufferPointer { b in
                cvision_gcc_phat(a.baseAddress, b.baseAddress, Int32(count), Int32(maxLag), &lag, &peak)
            }
        }
        return status == CVISION_OK ? (lag, peak) : nil
    }
}
