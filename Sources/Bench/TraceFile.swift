import DockCore

/// The per-frame trace written as it is recorded, so a run of days keeps none of it in memory:
/// rows go out every `rowsPerWrite` (about a second at 30 fps, so the file can be followed and
/// a crash loses little), the rest when the file is closed. The file reads like `TraceWriter`'s.
public final class TraceFile {
    public let path: String
    public private(set) var rowsWritten = 0
    private var descriptor: FileDescriptor?
    private var pending: [UInt8] = []
    static let rowsPerWrite = 30

    /// Creates (or empties) the file and writes the header.
    public init(path: String) throws(Errno) {
        self.path = path
        descriptor = try FileDescriptor.create(path)
        pending.append(contentsOf: (TraceRow.csvHeader + "\n").utf8)
    }

    public func append(_ row: TraceRow) throws(Errno) {
        pending.append(contentsOf: row.csv.utf8)
        pending.append(UInt8(ascii: "\n"))
        rowsWritten += 1
        if rowsWritten % Self.rowsPerWrite == 0 { try flush() }
    }

    /// Writes what is pending; a failure (a full disk) leaves the file as far as it got.
    public func flush() throws(Errno) {
        guard let descriptor else { return }
        var start = 0
        defer { pending.removeFirst(start) }
        while start < pending.count {
            start += try descriptor.write(pending[start...])
        }
    }

    /// Flushes and closes; later rows are not written.
    public func close() throws(Errno) {
        defer {
            descriptor?.close()
            descriptor = nil
        }
        try flush()
    }

    deinit { try? close() }
}
