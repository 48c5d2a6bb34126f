/// SimpleBGC (BaseCam) serial API framing, pure: bytes in, frames out.
///
/// v1 frames: `>` cmd size (cmd+size)%256 payload… sum(payload)%256.
/// v2 frames: `$` cmd size (cmd+size)%256 payload… CRC16 (poly 0x8005 over cmd, size, header
/// checksum and payload, bits taken least significant first, sent low byte first).
public enum SimpleBGC {
    /// Command to motion on a brushless gimbal controller at 115200 baud (an estimate).
    public static let typicalLatency = 0.03
    public enum Version: Sendable, Equatable { case v1, v2 }

    public enum Command: UInt8, Sendable {
        case boardInfo = 86  // 'V'
        case control = 67  // 'C' out; CMD_CONFIRM in answers carry the same id
        case realtimeData3 = 23
        case getAngles = 73  // 'I'
        case controlConfig = 90
        case motorsOn = 77  // 'M'
        case motorsOff = 109  // 'm'
        case error = 255
    }

    /// CMD_CONTROL modes per axis.
    public enum ControlMode: UInt8, Sendable { case noControl = 0, speed = 1, angle = 2 }

    /// Units of the API: angles in 2^14 per turn, speeds in 0.1220740379 °/s.
    public static let degreesPerAngleUnit = 360.0 / 16384
    public static let degreesPerSecondPerSpeedUnit = 0.1220740379

    public struct Frame: Sendable, Equatable {
        public var command: UInt8
        public var payload: [UInt8]

        public init(command: UInt8, payload: [UInt8]) {
            self.command = command
            self.payload = payload
        }
    }

    public static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            for bit in 0..<8 {
                let dataBit = (byte >> UInt8(bit)) & 1
                let crcBit = UInt8(crc >> 15)
                crc <<= 1
                if dataBit != crcBit { crc ^= 0x8005 }
            }
        }
        return crc
    }

    public static func encode(_ frame: Frame, version: Version = .v2) -> [UInt8] {
        precondition(frame.payload.count <= 255)
        let size = UInt8(frame.payload.count)
        let header = [frame.command, size, frame.command &+ size]
        switch version {
        case .v1:
            return [UInt8(ascii: ">")] + header + frame.payload + [frame.payload.reduce(0, &+)]
        case .v2:
            let crc = crc16(header + frame.payload)
            return [UInt8(ascii: "$")] + header + frame.payload + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        }
    }

    /// CMD_CONTROL in speed mode for pitch and yaw (°/s), the extended per-axis-mode form:
    /// mode[roll, pitch, yaw], then speed and angle (int16, little-endian) per axis.
    public static func speedControl(pitchDegreesPerSecond pitch: Double, yawDegreesPerSecond yaw: Double) -> Frame {
        func units(_ dps: Double) -> Int16 { Int16(clamping: Int((dps / degreesPerSecondPerSpeedUnit).rounded())) }
        var payload: [UInt8] = [ControlMode.noControl.rawValue, ControlMode.speed.rawValue, ControlMode.speed.rawValue]
        for speed in [Int16(0), units(pitch), units(yaw)] {
            payload += le(speed) + le(Int16(0))
        }
        return Frame(command: Command.control.rawValue, payload: payload)
    }

    /// CMD_CONTROL in angle mode: pitch and yaw targets (degrees) reached at the given speeds.
    public static func angleControl(pitchDegrees: Double, yawDegrees: Double, speedDegreesPerSecond: Double) -> Frame {
        func angle(_ d: Double) -> Int16 { Int16(clamping: Int((d / degreesPerAngleUnit).rounded())) }
        let speed = Int16(clamping: Int((abs(speedDegreesPerSecond) / degreesPerSecondPerSpeedUnit).rounded()))
        var payload: [UInt8] = [ControlMode.noControl.rawValue, ControlMode.angle.rawValue, ControlMode.angle.rawValue]
        for (s, a) in [(Int16(0), Int16(0)), (speed, angle(pitchDegrees)), (speed, angle(yawDegrees))] {
            payload += le(s) + le(a)
        }
        return Frame(command: Command.control.rawValue, payload: payload)
    }

    /// CMD_CONTROL_CONFIG with the device-side timeout: without a CMD_CONTROL for this long the
    /// controller stops obeying serial commands (motors hold). Other fields left unchanged (0).
    public static func controlConfig(timeoutMilliseconds: UInt16) -> Frame {
        Frame(
            command: Command.controlConfig.rawValue, payload: le(timeoutMilliseconds) + [UInt8](repeating: 0, count: 39)
        )
    }

    /// Angles (degrees: roll, pitch, yaw) and battery voltage from CMD_REALTIME_DATA_3:
    /// IMU_ANGLE at byte 32, BAT_LEVEL (0.01 V) at byte 55.
    public static func realtimeData(_ payload: [UInt8]) -> (
        angles: (roll: Double, pitch: Double, yaw: Double), volts: Double
    )? {
        guard payload.count >= 63 else { return nil }
        func i16(_ at: Int) -> Double { Double(Int16(bitPattern: UInt16(payload[at]) | UInt16(payload[at + 1]) << 8)) }
        let volts = Double(UInt16(payload[55]) | UInt16(payload[56]) << 8) / 100
        return ((i16(32) * degreesPerAngleUnit, i16(34) * degreesPerAngleUnit, i16(36) * degreesPerAngleUnit), volts)
    }

    static func le(_ v: Int16) -> [UInt8] { le(UInt16(bitPattern: v)) }
    static func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
}

/// Splits a SimpleBGC byte stream into frames. Garbage before a start byte is skipped; a frame
/// whose header checksum or CRC is wrong is dropped and the search resumes one byte later, so
/// the stream resynchronises. The buffer never holds more than one largest frame.
public struct SimpleBGCDecoder: Sendable {
    public let version: SimpleBGC.Version
    private var buffer: [UInt8] = []
    public private(set) var skippedBytes = 0
    public private(set) var badFrames = 0

    public init(version: SimpleBGC.Version = .v2) { self.version = version }

    var start: UInt8 { version == .v2 ? UInt8(ascii: "$") : UInt8(ascii: ">") }
    var trailer: Int { version == .v2 ? 2 : 1 }

    public mutating func feed(_ bytes: [UInt8]) -> [SimpleBGC.Frame] {
        buffer += bytes
        var frames: [SimpleBGC.Frame] = []
        while true {
            guard let first = buffer.firstIndex(of: start) else {
                skippedBytes += buffer.count
                buffer.removeAll()
                break
            }
            if first > 0 {
                skippedBytes += first
                buffer.removeFirst(first)
            }
            guard buffer.count >= 4 else { break }
            let (command, size, check) = (buffer[1], buffer[2], buffer[3])
            guard command &+ size == check else {
                reject()
                continue
            }
            let total = 4 + Int(size) + trailer
            guard buffer.count >= total else { break }
            let payload = Array(buffer[4..<(4 + Int(size))])
            let valid: Bool
            switch version {
            case .v1: valid = payload.reduce(0, &+) == buffer[total - 1]
            case .v2:
                let crc = SimpleBGC.crc16([command, size, check] + payload)
                valid = UInt8(crc & 0xFF) == buffer[total - 2] && UInt8(crc >> 8) == buffer[total - 1]
            }
            guard valid else {
                reject()
                continue
            }
            frames.append(SimpleBGC.Frame(command: command, payload: payload))
            buffer.removeFirst(total)
        }
        return frames
    }

    private mutating func reject() {
        badFrames += 1
        skippedBytes += 1
        buffer.removeFirst()
    }
}
