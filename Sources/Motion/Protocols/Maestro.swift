/// Pololu Maestro servo controllers, compact protocol, pure. Targets are in quarter
/// microseconds, sent as two 7-bit halves.
public enum Maestro {
    public static func setTarget(channel: UInt8, quarterMicroseconds q: UInt16) -> [UInt8] {
        [0x84, channel, UInt8(q & 0x7F), UInt8(q >> 7 & 0x7F)]
    }

    /// Speed limit in (0.25 µs) / (10 ms); 0 = unlimited.
    public static func setSpeed(channel: UInt8, _ speed: UInt16) -> [UInt8] {
        [0x87, channel, UInt8(speed & 0x7F), UInt8(speed >> 7 & 0x7F)]
    }
    public static func setAcceleration(channel: UInt8, _ accel: UInt16) -> [UInt8] {
        [0x89, channel, UInt8(accel & 0x7F), UInt8(accel >> 7 & 0x7F)]
    }
    /// Answered by two bytes, low first: the position the controller is driving (quarter µs).
    public static func getPosition(channel: UInt8) -> [UInt8] { [0x90, channel] }
    /// Answered by two bytes, low first: the error flags.
    public static let getErrors: [UInt8] = [0xA1]
}

/// How one axis maps to a servo channel.
public struct ServoAxis: Sendable, Hashable {
    public var channel: UInt8
    /// Pulse width at the axis' zero angle, and how many microseconds one radian takes.
    public var centerMicroseconds: Double = 1500
    public var microsecondsPerRadian: Double = 600  // ≈ 10.5 µs per degree, a typical hobby servo
    public var minimumMicroseconds: Double = 800
    public var maximumMicroseconds: Double = 2200
    /// -1 when the servo turns the other way.
    public var direction: Double = 1

    public init(channel: UInt8) { self.channel = channel }

    public func pulse(for angle: Double) -> Double {
        min(
            max(centerMicroseconds + direction * angle * microsecondsPerRadian, minimumMicroseconds),
            maximumMicroseconds)
    }

    public var angleRange: Range<Double> {
        let a = (minimumMicroseconds - centerMicroseconds) / microsecondsPerRadian * direction
        let b = (maximumMicroseconds - centerMicroseconds) / microsecondsPerRadian * direction
        return min(a, b)..<max(a, b)
    }
}
