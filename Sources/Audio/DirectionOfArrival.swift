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

    /// Which channel carries which microphone. A pair wired or mounted the other way round
    /// (`rightLeft`) read as `leftRight` mirrors every direction: the head turns to the person
    /// opposite whoever speaks.
    public enum ChannelOrder: String, Sendable, Hashable, CaseIterable {
        case leftRight = "left-right"
        case rightLeft = "right-left"
    }

    public var spacing: Double
    public var mounting: Mounting
    public var order: ChannelOrder
    public static let speedOfSound = 343.0

    public init(spacing: Double = 0.15, mounting: Mounting = .room, order: ChannelOrder = .leftRight) {
        self.spacing = spacing
        self.mounting = mounting
        self.order = order
    }

    /// The channel that carries the left microphone, and the one that carries the right.
    public var leftChannel: Int { order == .leftRight ? 0 : 1 }
    public var rightChannel: Int { 1 - leftChannel }

    /// "; " and the order note when the order is not the usual one, else nothing: for runs whose
    /// start line names the order only when it matters (generated scenes).
    public var unusualOrderNote: String { order == .rightLeft ? "; " + orderNote : "" }

    /// How the pair is read, for the line a run prints at start.
    public var orderNote: String {
        switch order {
        case .rightLeft: "microphones read right, left (--mic-order right-left)"
        case .leftRight:
            "microphones read left, right (if the head turns to the person opposite whoever speaks, the pair is the other way round: --mic-order right-left)"
        }
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
