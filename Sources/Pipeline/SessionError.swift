/// A run that cannot start or cannot go on; the message says what to do.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
