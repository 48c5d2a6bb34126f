/// Pelco-D, pure: 7-byte messages `FF addr cmd1 cmd2 data1 data2 checksum`, the checksum being
/// the sum of bytes 2–6 modulo 256.
public enum PelcoD {
    /// Command to motion on a typical RS-485 head at 2400–9600 baud (an estimate: the bus, the
    /// head's turn to answer queries, its ramp-up).
    public static let typicalLatency = 0.1
    public struct Message: Sendable, Equatable {
        public var address: UInt8
        public var command1: UInt8
        public var command2: UInt8
        public var data1: UInt8
        public var data2: UInt8

        public init(address: UInt8, command1: UInt8 = 0, command2: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
            self.address = address
            self.command1 = command1
            self.command2 = command2
            self.data1 = data1
            self.data2 = data2
        }

        public var bytes: [UInt8] {
            let body = [address, command1, command2, data1, data2]
            return [0xFF] + body + [body.reduce(0, &+)]
        }
    }

    /// Speeds 0…0x3F; direction bits in command 2: right 0x02, left 0x04, up 0x08, down 0x10.
    public static let maximumSpeed: UInt8 = 0x3F

    public static func move(address: UInt8, panSpeed: Int, tiltSpeed: Int, zoom: Int = 0) -> Message {
        var command2: UInt8 = 0
        if panSpeed > 0 { command2 |= 0x02 } else if panSpeed < 0 { command2 |= 0x04 }
        if tiltSpeed > 0 { command2 |= 0x10 } else if tiltSpeed < 0 { command2 |= 0x08 }
        if zoom > 0 { command2 |= 0x20 } else if zoom < 0 { command2 |= 0x40 }
        return Message(
            address: address, command2: command2, data1: UInt8(min(abs(panSpeed), Int(maximumSpeed))),
            data2: UInt8(min(abs(tiltSpeed), Int(maximumSpeed))))
    }

    public static func stop(address: UInt8) -> Message { Message(address: address, command2: 0) }
    public static func setPreset(address: UInt8, _ n: UInt8) -> Message {
        Message(address: address, command2: 0x03, data2: n)
    }
    public static func clearPreset(address: UInt8, _ n: UInt8) -> Message {
        Message(address: address, command2: 0x05, data2: n)
    }
    public static func goToPreset(address: UInt8, _ n: UInt8) -> Message {
        Message(address: address, command2: 0x07, data2: n)
    }
    public static func queryPan(address: UInt8) -> Message { Message(address: address, command2: 0x51) }
    public static func queryTilt(address: UInt8) -> Message { Message(address: address, command2: 0x53) }

    /// Position answers: pan (0x59) and tilt (0x5B) in hundredths of a degree.
    public enum Reply: Sendable, Equatable {
        case pan(hundredthsOfDegree: UInt16)
        case tilt(hundredthsOfDegree: UInt16)
        case other(Message)
    }

    public static func reply(_ m: Message) -> Reply {
        let value = UInt16(m.data1) << 8 | UInt16(m.data2)
        switch m.command2 {
        case 0x59: return .pan(hundredthsOfDegree: value)
        case 0x5B: return .tilt(hundredthsOfDegree: value)
        default: return .other(m)
        }
    }
}

/// Splits a Pelco-D stream into messages. A candidate starting at 0xFF whose checksum fails is
/// dropped one byte at a time, so the stream resynchronises after noise or lost bytes.
public struct PelcoDDecoder: Sendable {
    private var buffer: [UInt8] = []
    public private(set) var skippedBytes = 0
    public private(set) var badMessages = 0

    public init() {}

    public mutating func feed(_ bytes: [UInt8]) -> [PelcoD.Message] {
        buffer += bytes
        var messages: [PelcoD.Message] = []
        while true {
            guard let start = buffer.firstIndex(of: 0xFF) else {
                skippedBytes += buffer.count
                buffer.removeAll()
                break
            }
            if start > 0 {
                skippedBytes += start
                buffer.removeFirst(start)
            }
            guard buffer.count >= 7 else { break }
            let body = Array(buffer[1..<6])
            if body.reduce(0, &+) == buffer[6] {
                messages.append(
                    PelcoD.Message(
                        address: body[0], command1: body[1], command2: body[2], data1: body[3], data2: body[4]))
                buffer.removeFirst(7)
            } else {
                badMessages += 1
                skippedBytes += 1
                buffer.removeFirst()
            }
        }
        return messages
    }
}
