/// A run that cannot start or cannot go on: one line that says what to do, and the kind of
/// trouble it is, so whoever started the run can act on it without reading the line (dockd
/// exits with a status a service manager tells apart: retry a device that is not there yet,
/// never a setting that cannot work).
public struct SessionError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Anything else: the line says what.
        case failed
        /// A device the settings name is not there or does not answer (a camera unplugged, a
        /// gimbal's port missing or its head switched off): starting again once it is back works.
        case deviceUnavailable
        /// The settings or the installation cannot work as they are (options that do not go
        /// together, a device without permission, a camera that is not one): starting again will
        /// not help until they are changed.
        case setup
    }

    public let kind: Kind
    public let message: String
    public init(_ message: String, kind: Kind = .failed) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }
}
