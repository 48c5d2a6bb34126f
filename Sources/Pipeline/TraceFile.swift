import DockCore

/// The per-frame trace written as it is recorded, so a run of days keeps none of it in memory:
/// rows are handed over every `rowsPerWrite` (about a second at 30 fps, so the file can be
/// followed and a crash loses little) to a writing thread of its own (`FileSinkThread`), so a
/// slow disk never holds up the frame path. In real time a second's rows that find
/// `queuedWrites` already waiting are dropped and counted; on media time (`waitsWhenFull`) the
/// caller waits instead and keeps every row. A write that fails (a full disk) stops the file.
/// The file reads like `TraceWriter`'s.
public final class TraceFile {
    public let path: String
    /// Rows appended, written or not.
    public private(set) var rowsAppended = 0
    /// Rows dropped because the disk fell behind, or lost when the file stopped.
    public private(set) var rowsDropped = 0
    private var pending: [UInt8] = []
    private var pendingRows = 0
    private let sink: FileSinkThread<Chunk>
    /// Rows the disk has taken, counted on the writing thread.
    private let rowsWritten = Protected(0)
    static let rowsPerWrite = 30
    /// Writes that may wait for the disk: about 8 s of rows.
    static let queuedWrites = 8

    /// Creates (or empties) the file; the header goes out with the first second's rows.
    public init(path: String, waitsWhenFull: Bool = false) throws(Errno) {
        self.path = path
        let descriptor = try FileDescriptor.create(path)
        sink = FileSinkThread(
            name: "trace file", depth: Self.queuedWrites, waitsWhenFull: waitsWhenFull,
            wording: .init(
                fellBehind: "trace \(path): the disk is not keeping up; rows it cannot take are dropped and counted",
                stopped: { _, error in
                    "trace \(path) stopped: \(error) (the disk is full or the file cannot be written)"
                }),
            write: { [rowsWritten] (chunk: Chunk) throws(Errno) in
                try descriptor.writeAll(chunk.bytes)
                rowsWritten.withLock { $0 += chunk.rows }
            },
            close: { descriptor.close() })
        pending.append(contentsOf: (TraceRow.csvHeader + "\n").utf8)
    }

    public func append(_ row: TraceRow) {
        pending.append(contentsOf: row.csv.utf8)
        pending.append(UInt8(ascii: "\n"))
        rowsAppended += 1
        pendingRows += 1
        if pendingRows >= Self.rowsPerWrite { handOver() }
    }

    /// Why the file stopped, once it has.
    public var failure: String? { sink.current.failure }

    /// Lines to say, once each: the disk fell behind, the file stopped.
    public func takeNotices() -> [String] { sink.takeNotices() }

    /// Hands the last rows over, waits up to `timeout` seconds for the disk to take what is
    /// queued, and closes the file. Returns why it stopped, if it did.
    @discardableResult
    public func close(timeout: Double = 5) -> String? {
        handOver()
        let figures = sink.finish(timeout: timeout)
        // Whatever did not reach the disk: dropped when it fell behind, lost when it stopped,
        // or still queued when the timeout left it behind.
        rowsDropped = rowsAppended - rowsWritten.withLock { $0 }
        return figures.failure
    }

    /// A second's rows, handed over as one write.
    struct Chunk: Sendable {
        var bytes: [UInt8]
        var rows: Int
    }

    private func handOver() {
        guard !pending.isEmpty else { return }
        if !sink.submit(Chunk(bytes: pending, rows: pendingRows)) { rowsDropped += pendingRows }
        pending = []
        pendingRows = 0
    }

    deinit { close(timeout: 0) }
}
