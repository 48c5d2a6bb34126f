import CNettle
import Foundation

/// SHA-256, for checking model files and media against their manifests: Nettle's digest (the
/// toolchain offers none on Linux; Swift sees the `nettle_` names its macros stand for). A
/// value: Nettle's context is a plain C struct, so a copy goes on from where the original was.
public struct SHA256: Sendable {
    private var context = sha256_ctx()

    public init() { nettle_sha256_init(&context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    public mutating func update<D: DataProtocol>(_ data: D) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_sha256_digest(&context, digest.count, &digest)
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
}
