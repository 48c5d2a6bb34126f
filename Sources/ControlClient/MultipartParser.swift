import Foundation

/// Splits a `multipart/x-mixed-replace` body (dockd's frame and preview streams) into parts:
/// each part's headers (lower-case names) and its body, whose length `Content-Length` gives.
/// A pure value, fed the body's bytes as they arrive.
package struct MultipartParser {
    package struct Part: Sendable {
        package var headers: [String: String]
        package var body: [UInt8]
    }

    /// A part longer than this is a broken stream: the parser stops rather than buffer it.
    package static let maximumPartBytes = 32 << 20

    private var pending: [UInt8] = []
    private var headers: [String: String]?
    package private(set) var broken: String?

    package init() {}

    package mutating func feed(_ bytes: [UInt8]) -> [Part] {
        guard broken == nil else { return [] }
        pending += bytes
        var parts: [Part] = []
        while true {
            if let headers {
                guard let length = headers["content-length"].flatMap({ Int($0) }), length >= 0,
                    length <= Self.maximumPartBytes
                else {
                    broken = "a part without a usable Content-Length"
                    return parts
                }
                guard pending.count >= length else { return parts }
                parts.append(Part(headers: headers, body: Array(pending[..<length])))
                pending.removeFirst(length)
                self.headers = nil
            } else {
                // Skip to the boundary line, then read the headers up to the blank line.
                guard let end = pending.firstRange(of: [13, 10, 13, 10])?.lowerBound else {
                    if pending.count > 64 * 1024 { broken = "part headers over 64 KiB" }
                    return parts
                }
                let text = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                var found: [String: String] = [:]
                for line in text.split(separator: "\r\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    found[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: [" ", "\t"])
                }
                headers = found
            }
        }
    }
}
