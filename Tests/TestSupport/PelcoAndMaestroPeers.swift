import DockCore
import Foundation
import Motion

/// A Pelco-D head at one address: moves at the commanded speed steps, answers the pan and tilt
/// position queries in hundredths of a degree, remembers presets; ignores other addresses.
public final class PelcoDHead: @unchecked Sendable {
    private let lock = NSLock()
    private var decoder = PelcoDDecoder()
    private var dynamics = GimbalDynamics(
        model: GimbalModel(
            maximumSpeed: 2, maximumAcceleration: 20, latency: 0,
            yawRange: -3...3, pitchRange: -1.5...1.5))
    private let start = SystemMonotonicClock().now
    public let address: UInt8
    public let maximumPanSpeed = 60 * Double.pi / 180
    public let maximumTiltSpeed = 30 * Double.pi / 180
    private var storedPresets: [UInt8: Vector3D] = [:]
    private var others: [PelcoD.Message] = []
    public var presets: [UInt8: Vector3D] { lock.withLock { storedPresets } }

    public init(address: UInt8 = 1) { self.address = address }

    private var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now.nanoseconds - start.nanoseconds)
    }
    public var velocity: Vector3D {
        lock.withLock {
            dynamics.advance(to: now)
            return dynamics.velocity
        }
    }
    public var pose: Vector3D {
        lock.withLock {
            dynamics.advance(to: now)
            return dynamics.position
        }
    }

    public func handle(_ bytes: [UInt8]) -> [UInt8] {
        lock.withLock {
            dynamics.advance(to: now)
            var out: [UInt8] = []
            for m in decoder.feed(bytes) where m.address == address {
                switch m.command2 {
                case 0x51, 0x53:
                    let degrees = (m.command2 == 0x51 ? dynamics.position.y : dynamics.position.x) * 180 / .pi
                    let h = UInt16((degrees < 0 ? degrees + 360 : degrees) * 100)
                    out +=
                        PelcoD.Message(
                            address: address, command2: m.command2 + 8, data1: UInt8(h >> 8), data2: UInt8(h & 0xFF)
                        ).bytes
                case 0x03: storedPresets[m.data2] = dynamics.position
                case 0x05: storedPresets[m.data2] = nil
                case 0x07: others.append(m)
                default:
                    if m.command2 & 0x01 == 0, m.command2 & 0x80 == 0 {
                        let pan = Double(m.data1) / 63 * maximumPanSpeed
                        let tilt = Double(m.data2) / 63 * maximumTiltSpeed
                        let yaw = m.command2 & 0x02 != 0 ? pan : (m.command2 & 0x04 != 0 ? -pan : 0)
                        let pitch = m.command2 & 0x10 != 0 ? tilt : (m.command2 & 0x08 != 0 ? -tilt : 0)
                        dynamics.command(Vector3D(x: pitch, y: yaw, z: 0), at: now)
                    } else {
                        others.append(m)
                    }
                }
            }
            return out
        }
    }
}

/// A Pololu Maestro: records servo targets per channel, answers get-errors and get-position.
public final class MaestroController: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var targets: [UInt8: UInt16] = [:]

    public init() {}

    public func target(_ channel: UInt8) -> UInt16? { lock.withLock { targets[channel] } }

    public func handle(_ bytes: [UInt8]) -> [UInt8] {
        lock.withLock {
            pending += bytes
            var out: [UInt8] = []
            while let command = pending.first {
                switch command {
                case 0xA1:
                    pending.removeFirst()
                    out += [0, 0]
                case 0x90:
                    guard pending.count >= 2 else { return out }
                    let value = targets[pending[1]] ?? 6000
                    out += [UInt8(value & 0xFF), UInt8(value >> 8)]
                    pending.removeFirst(2)
                case 0x84, 0x87, 0x89:
                    guard pending.count >= 4 else { return out }
                    if command == 0x84 {
                        targets[pending[1]] = UInt16(pending[2]) | UInt16(pending[3]) << 7
                    }
                    pending.removeFirst(4)
                default:
                    pending.removeFirst()  // not a command byte: skip it
                }
            }
            return out
        }
    }
}
