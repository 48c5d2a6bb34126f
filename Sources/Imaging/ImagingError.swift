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
}
