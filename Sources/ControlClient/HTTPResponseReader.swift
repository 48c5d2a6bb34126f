import Foundation

/// Reads an HTTP/1.1 response as its bytes arrive: the status line and headers, then the body
/// with chunked transfer decoding undone. A pure value, fed by the control client.
package struct HTTPResponseReader {
    package init() {}

    package enum Failure: Error, Equatable { case malformed(String) }

    package private(set) var status: Int?
    package private(set) var headers: [String: String] = [:]
    private var buffer: [UInt8] = []
    private var chunked = false
    /// Bytes left in the current chunk; nil = a chunk-size line is next.
    private var chunkLeft: Int?
    package private(set) var finished = false

    /// Takes bytes from the connection; returns body bytes decoded so far.
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [UInt8] {
        buffer.append(contentsOf: bytes)
        if status == nil {
            guard let end = buffer.firstRange(of: [13, 10, 13, 10])?.lowerBound else {
                if buffer.count > 64 * 1024 { throw .malformed("response headers over 64 KiB") }
                return []
            }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
                throw .malformed("not an HTTP response: \(head.prefix(40))")
            }
            status = code
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") == true
        }
        guard chunked else {
            defer { buffer.removeAll() }
            return buffer
        }
        var body: [UInt8] = []
        while !finished {
            if let left = chunkLeft {
                if left == 0 {
                    // The CRLF after a chunk's data.
                    guard buffer.count >= 2 else { break }
                    buffer.removeFirst(2)
                    chunkLeft = nil
                    continue
                }
                guard !buffer.isEmpty else { break }
                let take = min(left, buffer.count)
                body.append(contentsOf: buffer[..<take])
                buffer.removeFirst(take)
                chunkLeft = left - take
            } else {
                guard let end = buffer.firstRange(of: [13, 10])?.lowerBound else { break }
                let sizeText =
                    String(decoding: buffer[..<end], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .malformed("bad chunk size '\(sizeText)'")
                }
                buffer.removeFirst(end + 2)
                if size == 0 { finished = true } else { chunkLeft = size }
            }
        }
        return body
    }
}
