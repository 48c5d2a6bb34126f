/// Every frame a source produced and what became of it, the same for every rig: the ones the
/// source never delivered (by cause), the ones the pipeline skipped for a newer one, and the
/// ones it processed. Nothing is left out: `produced` is the sum of the outcomes.
public struct FrameAccounting: Sendable, Hashable {
    /// What the source did not deliver: lost in the driver, left for a newer frame, damaged,
    /// error-flagged, late (a simulated camera behind its clock).
    public var source = SourceCounts()
    /// Frames the source delivered to the pipeline.
    public var delivered = 0
    /// Delivered frames replaced in the newest-only mailbox before perception took them.
    public var replacedByNewer = 0
    /// Frames perception finished.
    public var processed = 0

    public init() {}

    /// Delivered but neither processed nor replaced: in the mailbox or in progress at the stop.
    public var pendingAtStop: Int { max(0, delivered - replacedByNewer - processed) }

    public var produced: Int { delivered + source.total }

    /// Produced and not processed, whatever the cause.
    public var notProcessed: Int { produced - processed }

    /// Frames the pipeline could not keep up with: a newer one replaced them, at the source's
    /// queue or in the mailbox, or the simulated camera was behind its clock.
    public var skippedForLateness: Int { replacedByNewer + source.skippedForNewer + source.late }

    /// Frames thrown away as bad data: damaged or flagged by the driver.
    public var damagedOrFlagged: Int { source.damaged + source.errorFlagged }

    /// Each outcome by name (the `/metrics` labels and the summary's words).
    public var outcomes: [(key: String, count: Int)] {
        [
            ("processed", processed), ("replaced_by_newer", replacedByNewer),
            ("skipped_in_queue", source.skippedForNewer),
            ("late", source.late), ("damaged", source.damaged), ("error_flagged", source.errorFlagged),
            ("lost_in_driver", source.lostInDriver), ("thinned", source.thinned), ("pending_at_stop", pendingAtStop),
        ]
    }

    /// One line: "frames produced 462: 412 processed, 30 replaced by a newer one, …".
    public var report: String {
        let words: [(Int, String)] = [
            (replacedByNewer, "replaced by a newer one before processing"),
            (source.skippedForNewer, "skipped in the camera's queue for a newer one"),
            (source.late, "late (the camera was behind)"), (source.damaged, "damaged"),
            (source.errorFlagged, "flagged bad by the driver"), (source.lostInDriver, "lost in the driver"),
            (source.thinned, "thinned (the perception's rate is lower than the camera's)"),
            (pendingAtStop, "in flight at the stop"),
        ]
        let rest = words.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "frames produced \(produced): \(processed) processed"
            + (rest.isEmpty ? "" : ", " + rest.joined(separator: ", "))
    }
}
