import CCrypto
import Foundation

/// SHA-256, for checking model files and media against their manifests: libcrypto's digest
/// (the toolchain offers none on Linux). A value: a copy goes on from where the original was.
public struct SHA256: Sendable {
    private var context: DigestContext

    public init() { context = DigestContext() }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        EVP_DigestUpdate(context.pointer, base, bytes.count)
    }

    public mutating func update<D: DataProtocol>(_ data: D) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let copy = context.copy()
        EVP_DigestFinal_ex(copy.pointer, &digest, &length)
        return Array(digest.prefix(Int(length)))
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

/// One libcrypto digest context; only ever changed through a unique reference (SHA256 copies
/// it first otherwise), so sharing it between threads is safe.
private final class DigestContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init() {
        // Allocation fails only when memory is gone; nothing sensible can follow.
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
        pointer = context
        EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
    }

    private init(copying other: DigestContext) {
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
        pointer = context
        EVP_MD_CTX_copy_ex(pointer, other.pointer)
    }

    func copy() -> DigestContext { DigestContext(copying: self) }

    deinit { EVP_MD_CTX_free(pointer) }
}
