/// A command line that cannot be understood; the tools exit 64 (EX_USAGE) with this message.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
