import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.unit)) struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(_ input: String, _ digest: String) {
        #expect(SHA256.hex(of: Data(input.utf8)) == digest)
    }

    @Test func millionAsInUnevenChunks() {
        var hasher = SHA256()
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 999)
        var fed = 0
        while fed < 1_000_000 {
            let n = min(chunk.count, 1_000_000 - fed)
            hasher.update(chunk.prefix(n))
            fed += n
        }
        let hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// A copy goes on from where the original was, and neither disturbs the other.
    @Test func aCopyIsAValue() {
        var first = SHA256()
        first.update(Data("ab".utf8))
        var second = first
        first.update(Data("c".utf8))
        second.update(Data("d".utf8))
        let hex = { (digest: [UInt8]) in digest.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(first.finalize()) == SHA256.hex(of: Data("abc".utf8)))
        #expect(hex(second.finalize()) == SHA256.hex(of: Data("abd".utf8)))
    }

    @Test func fileDigestMatchesDataDigest() throws {
        let path = NSTemporaryDirectory() + "sha-\(UUID().uuidString)"
        let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SHA256.hex(ofFileAt: path) == SHA256.hex(of: data))
        #expect(SHA256.hex(ofFileAt: path + ".missing") == nil)
    }
}
