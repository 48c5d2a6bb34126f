import DockCore
import Foundation

/// The camera's mmap buffers, shared by the camera and the frames that still read from them.
/// A raw frame keeps its full-size picture by leasing the driver buffer it arrived in instead of
/// copying it: while leased the driver cannot fill that buffer, and once the last frame holding
/// the lease is gone the buffer is handed back and the camera queues it again at its next read.
/// The mappings outlive the camera's close while a lease is out and are unmapped with the last.
final class CaptureBufferPool: @unchecked Sendable {
    struct Mapping {
        let address: UnsafeMutableRawPointer
        let length: Int
    }

    let mappings: [Mapping]
    private let system: any VideoDeviceSystem
    private let lock = NSLock()
    private var leased: Set<Int> = []
    private var returned: [Int] = []

    init(mappings: [Mapping], system: any VideoDeviceSystem) {
        self.mappings = mappings
        self.system = system
    }

    deinit { for m in mappings { system.munmap(m.address, length: m.length) } }

    var count: Int { mappings.count }

    /// Buffers out on lease, not yet handed back.
    var leasedCount: Int { lock.withLock { leased.count } }

    /// Buffers the driver cannot fill: out on lease, or handed back and not yet queued again.
    var awayFromTheDriver: Int { lock.withLock { leased.count + returned.count } }

    /// Leases buffer `index`, which the camera has dequeued, for its first `count` bytes.
    func lease(_ index: Int, count: Int) -> BufferLease {
        lock.withLock { _ = leased.insert(index) }
        let mapping = mappings[index]
        return BufferLease(
            bytes: UnsafeRawBufferPointer(start: mapping.address, count: min(count, mapping.length)), index: index,
            pool: self)
    }

    /// The buffers whose leases ended since the last call, for the camera to queue again.
    func takeReturned() -> [Int] {
        lock.withLock {
            defer { returned.removeAll(keepingCapacity: true) }
            return returned
        }
    }

    fileprivate func giveBack(_ index: Int) {
        lock.withLock {
            leased.remove(index)
            returned.append(index)
        }
    }
}

/// One driver buffer lent to the frames made from it; the buffer goes back when this goes.
/// The bytes are only read, and nothing writes the buffer while it is leased.
final class BufferLease: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let index: Int
    private let pool: CaptureBufferPool

    fileprivate init(bytes: UnsafeRawBufferPointer, index: Int, pool: CaptureBufferPool) {
        self.bytes = bytes
        self.index = index
        self.pool = pool
    }

    deinit { pool.giveBack(index) }
}
