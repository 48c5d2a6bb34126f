import CDigest
import Foundation

/// SHA-256 (FIPS 180-4), for checking model files and media against their manifests.
/// The toolchain offers no digest on Linux, so it is written out here (the block function in C,
/// `CDigest`, so that debug builds check a 13 MB model in a fraction of a second).
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            if pending.count == 64 {
                pending.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = (bytes.count - offset) / 64
        if blocks > 0 {
            compress(bytes.baseAddress! + offset, blocks: blocks)
            offset += blocks * 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    public mutating func update<D: DataProtocol>(_ data: D) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    public consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        tail.withUnsafeBytes { update($0) }
        length = savedLength
        var digest: [UInt8] = []
        for word in state { for shift in [24, 16, 8, 0] { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) } }
        return digest
    }

    public static func hex<D: DataProtocol>(of data: D) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The hex digest of a file, read in chunks; nil when it cannot be read.
    public static func hex(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }  // nil or empty: end of file
            hasher.update(chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        state.withUnsafeMutableBufferPointer { cdg_sha256_blocks($0.baseAddress, data.assumingMemoryBound(to: UInt8.self), blocks) }
    }
}
