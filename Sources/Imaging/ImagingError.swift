import CVision

/// A failure inside the OpenCV shim, with OpenCV's own message.
public struct ImagingError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// The shim's message for the last failure on this thread.
    static func last(_ operation: String) -> ImagingError {
        ImagingError(operation: operation, message: String(cString: cvision_last_error()))
    }

    public var description: String { message.isEmpty ? "\(operation) failed" : message }
}

/// Throws the shim's last error when `status` is negative.
@inline(__always)
func check(_ status: Int32, _ operation: String) throws(ImagingError) {
    if status < 0 { throw ImagingError.last(operation) }
}

public enum Imaging {
    /// Threads OpenCV's parallel loops may use.
    public static func setThreadCount(_ count: Int) { cvision_set_num_threads(Int32(count)) }

    /// Hands the heap's free pages back to the system: loading the models leaves tens of MiB of
    /// parsing buffers freed but still resident.
    public static func releaseFreeMemory() { cvision_trim_heap() }

    /// Makes the allocator keep less freed memory from now on (a small computer's profile).
    public static func limitHeapRetention() { cvision_limit_heap_retention() }

    /// Bytes of heap handed out and not yet freed: what a leak grows, unlike the resident size,
    /// which also steps with the allocator's free lists and arenas. nil under a sanitizer,
    /// whose allocator glibc does not see.
    public static func heapBytesInUse() -> Double? {
        let bytes = cvision_heap_in_use()
        return bytes == UInt64.max ? nil : Double(bytes)
    }
}
