/// One Linux input event (`struct input_event` on a 64-bit system: a timeval, type, code, value).
package struct InputEvent: Sendable, Equatable {
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    package static let size = 24
    static let keyType: UInt16 = 1  // EV_KEY
}

/// Splits what an evdev device gives into events: 24-byte records, a partial one kept for the
/// next read. Pure: bytes in, events out.
package struct InputEventDecoder: Sendable {
    private var pending: [UInt8] = []

    package init() {}

    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var offset = 0
        while pending.count - offset >= InputEvent.size {
            func u16(_ at: Int) -> UInt16 { UInt16(pending[offset + at]) | UInt16(pending[offset + at + 1]) << 8 }
            let raw =
                UInt32(pending[offset + 20]) | UInt32(pending[offset + 21]) << 8 | UInt32(pending[offset + 22]) << 16
                | UInt32(pending[offset + 23]) << 24
            events.append(InputEvent(type: u16(16), code: u16(18), value: Int32(bitPattern: raw)))
            offset += InputEvent.size
        }
        pending.removeFirst(offset)
        return events
    }

    /// The bytes of an event as the kernel writes it (for tests and tools).
    package static func encode(_ event: InputEvent) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: InputEvent.size)
        bytes[16] = UInt8(event.type & 0xFF)
        bytes[17] = UInt8(event.type >> 8)
        bytes[18] = UInt8(event.code & 0xFF)
        bytes[19] = UInt8(event.code >> 8)
        let v = UInt32(bitPattern: event.value)
        for i in 0..<4 { bytes[20 + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) }
        return bytes
    }
}

/// What a key on a remote or on the dock means to DockKit: the camera keys become shutter, flip
/// and zoom; the tracking key toggles system tracking; every other key is a `.button` with its
/// Linux key code as the id. Auto-repeat is ignored.
package struct ButtonMap: Sendable {
    /// Linux key codes (linux/input-event-codes.h).
    package static let keyCamera: UInt16 = 212, keyRecord: UInt16 = 167
    package static let keySwitchVideoMode: UInt16 = 227
    package static let keyZoomIn: UInt16 = 418, keyZoomOut: UInt16 = 419
    package static let keyCameraZoomIn: UInt16 = 533, keyCameraZoomOut: UInt16 = 534
    package static let keyPlayPause: UInt16 = 164

    /// The key that switches system tracking on and off (default: play/pause, which presenter
    /// remotes and gimbal handles send).
    package var trackingKey: UInt16 = keyPlayPause

    package init(trackingKey: UInt16 = keyPlayPause) { self.trackingKey = trackingKey }

    package enum Action: Sendable, Equatable {
        case event(DockAccessory.AccessoryEvent)
        case toggleSystemTracking
    }

    package func actions(for event: InputEvent) -> [Action] {
        guard event.type == InputEvent.keyType, event.value == 0 || event.value == 1 else { return [] }
        let pressed = event.value == 1
        switch event.code {
        case Self.keyCamera, Self.keyRecord: return pressed ? [.event(.cameraShutter)] : []
        case Self.keySwitchVideoMode: return pressed ? [.event(.cameraFlip)] : []
        case Self.keyZoomIn, Self.keyCameraZoomIn: return pressed ? [.event(.cameraZoom(factor: 1))] : []
        case Self.keyZoomOut, Self.keyCameraZoomOut: return pressed ? [.event(.cameraZoom(factor: -1))] : []
        case trackingKey:
            return [.event(.button(id: Int(event.code), pressed: pressed))] + (pressed ? [.toggleSystemTracking] : [])
        default: return [.event(.button(id: Int(event.code), pressed: pressed))]
        }
    }
}
