import Foundation
import Options

/// dockd's log: one line per event on stderr, as text (`dockd: message`, the default) or as a
/// JSON object with the event's name and fields (`--log-format json`), for journald and log
/// shippers.
public struct EventLog: Sendable {
    public typealias Format = LogFormat
    public let format: Format
    private let write: @Sendable (String) -> Void

    public init(
        format: Format,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.format = format
        self.write = write
    }

    /// One event: a short name (`source`, `control-api`, `camera`, …), the human sentence, and
    /// the values worth filtering on.
    public func event(_ name: String, _ message: String, _ fields: [String: Any] = [:]) {
        switch format {
        case .text:
            write("dockd: \(message)")
        case .json:
            var object = fields
            object["event"] = name
            object["message"] = message
            object["time"] = Date().timeIntervalSince1970
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data()
            write(String(decoding: data, as: UTF8.self))
        }
    }
}
