/// Sony VISCA messages, pure: bytes in, messages out. A message is a header byte (0x80 | from
/// << 4 | to), body bytes, and the terminator 0xFF.
public enum VISCA {
    public enum PanDirection: UInt8, Sendable { case left = 1, right = 2, stop = 3 }
    public enum TiltDirection: UInt8, Sendable { case up = 1, down = 2, stop = 3 }

    public static let maximumPanSpeed: UInt8 = 0x18
    public static let maximumTiltSpeed: UInt8 = 0x17
    /// Command to motion on a typical PTZ camera (an estimate: the camera's own ramp-up and
    /// its command queue; the control law predicts over it).
    public static let typicalLatency = 0.08

    /// Pan-tilt drive: speeds 1…0x18 (pan) and 1…0x17 (tilt), a direction per axis.
    public static func drive(
        address: UInt8 = 1, panSpeed: UInt8, tiltSpeed: UInt8, pan: PanDirection, tilt: TiltDirection
    ) -> [UInt8] {
        [
            0x80 | address, 0x01, 0x06, 0x01, min(max(panSpeed, 1), maximumPanSpeed),
            min(max(tiltSpeed, 1), maximumTiltSpeed),
            pan.rawValue, tilt.rawValue, 0xFF,
        ]
    }

    /// Absolute position in the camera's position units (signed 16-bit, one nibble per byte).
    public static func absolutePosition(address: UInt8 = 1, panSpeed: UInt8, tiltSpeed: UInt8, pan: Int16, tilt: Int16)
        -> [UInt8]
    {
        [
            0x80 | address, 0x01, 0x06, 0x02, min(max(panSpeed, 1), maximumPanSpeed),
            min(max(tiltSpeed, 1), maximumTiltSpeed),
        ]
            + nibbles(UInt16(bitPattern: pan)) + nibbles(UInt16(bitPattern: tilt)) + [0xFF]
    }

    public static func home(address: UInt8 = 1) -> [UInt8] { [0x80 | address, 0x01, 0x06, 0x04, 0xFF] }

    /// Zoom: positive speeds (1…7) zoom in, negative out, 0 stops.
    public static func zoom(address: UInt8 = 1, speed: Int) -> [UInt8] {
        let step = UInt8(min(abs(speed), 7))
        let code: UInt8 = speed > 0 ? 0x20 | step : (speed < 0 ? 0x30 | step : 0x00)
        return [0x80 | address, 0x01, 0x04, 0x07, code, 0xFF]
    }

    /// Zoom direct: the lens to a position, 0 (widest) up to the model's tele end.
    public static func zoomDirect(address: UInt8 = 1, position: UInt16) -> [UInt8] {
        [0x80 | address, 0x01, 0x04, 0x47] + nibbles(position) + [0xFF]
    }

    public static func positionInquiry(address: UInt8 = 1) -> [UInt8] { [0x80 | address, 0x09, 0x06, 0x12, 0xFF] }
    /// Answered with the zoom position, four nibbles: y0 50 0p 0q 0r 0s FF.
    public static func zoomPositionInquiry(address: UInt8 = 1) -> [UInt8] { [0x80 | address, 0x09, 0x04, 0x47, 0xFF] }
    public static func versionInquiry(address: UInt8 = 1) -> [UInt8] { [0x80 | address, 0x09, 0x00, 0x02, 0xFF] }

    public static func nibbles(_ v: UInt16) -> [UInt8] {
        [UInt8(v >> 12 & 0xF), UInt8(v >> 8 & 0xF), UInt8(v >> 4 & 0xF), UInt8(v & 0xF)]
    }
    public static func value(nibbles b: ArraySlice<UInt8>) -> Int16 {
        Int16(bitPattern: b.reduce(UInt16(0)) { $0 << 4 | UInt16($1 & 0xF) })
    }

    /// What a camera says back.
    public enum Reply: Sendable, Equatable {
        case ack(socket: UInt8)
        case completion(socket: UInt8)
        case error(socket: UInt8, code: UInt8)
        /// Answer to the pan-tilt position inquiry.
        case position(pan: Int16, tilt: Int16)
        /// Any other inquiry answer (the bytes between 0x50 and 0xFF).
        case inquiry([UInt8])

        public var errorDescription: String? {
            guard case .error(_, let code) = self else { return nil }
            switch code {
            case 0x01: return "message length error"
            case 0x02: return "syntax error"
            case 0x03: return "command buffer full"
            case 0x04: return "command cancelled"
            case 0x05: return "no socket"
            case 0x41: return "command not executable"
            default: return "error 0x\(String(code, radix: 16))"
            }
        }
    }

    /// Reads one reply message (header … 0xFF); nil when it is not a reply VISCA defines.
    public static func reply(_ message: [UInt8]) -> Reply? {
        guard message.count >= 3, message.first! & 0x80 != 0, message.last == 0xFF else { return nil }
        let kind = message[1] & 0xF0
        let socket = message[1] & 0x0F
        switch (kind, message.count) {
        case (0x40, 3): return .ack(socket: socket)
        case (0x50, 3): return .completion(socket: socket)
        case (0x60, 4): return .error(socket: socket, code: message[2])
        case (0x50, 11) where socket == 0:
            return .position(pan: value(nibbles: message[2..<6]), tilt: value(nibbles: message[6..<10]))
        case (0x50, _): return .inquiry(Array(message[2..<(message.count - 1)]))
        default: return nil
        }
    }
}

/// Splits a VISCA byte stream into messages: from a header byte (bit 7 set) to the next 0xFF.
/// Bytes before a header are skipped; a message longer than VISCA allows (16 bytes) is dropped.
public struct VISCADecoder: Sendable {
    private var current: [UInt8] = []
    public private(set) var skippedBytes = 0
    public private(set) var droppedMessages = 0

    public init() {}

    public mutating func feed(_ bytes: [UInt8]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        for byte in bytes {
            if current.isEmpty {
                if byte & 0x80 != 0 && byte != 0xFF { current.append(byte) } else { skippedBytes += 1 }
                continue
            }
            if byte & 0x80 != 0 && byte != 0xFF {
                // A header before the terminator: the previous message was cut off.
                droppedMessages += 1
                current = [byte]
                continue
            }
            current.append(byte)
            if byte == 0xFF {
                messages.append(current)
                current.removeAll()
            } else if current.count >= 16 {
                droppedMessages += 1
                current.removeAll()
            }
        }
        return messages
    }
}
