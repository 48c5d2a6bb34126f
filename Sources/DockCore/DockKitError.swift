import Foundation

/// The errors of DockKit's public API.
public enum DockKitError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CaseIterable
{
    case notSupported
    case notConnected
    case notSupportedByDevice
    case invalidParameter
    case noSubjectFound
    case frameRateTooLow
    case frameRateTooHigh
    case cameraTCCMissing

    public var description: String {
        switch self {
        case .notSupported: "not supported"
        case .notConnected: "the accessory is not connected"
        case .notSupportedByDevice: "the device does not support this"
        case .invalidParameter: "invalid parameter"
        case .noSubjectFound: "no subject found"
        case .frameRateTooLow: "track() is called less than 10 times per second"
        case .frameRateTooHigh:
            "calls come faster than the accessory allows (track(): 30 a second; orientation and animations: 2)"
        case .cameraTCCMissing: "the camera cannot be opened (permission denied)"
        }
    }

    public var errorDescription: String? { description }

    public var debugDescription: String { "DockKitError.\(name): \(description)" }

    /// The case's name, as the control API and DockKit sessions spell it.
    public var name: String {
        switch self {
        case .notSupported: "notSupported"
        case .notConnected: "notConnected"
        case .notSupportedByDevice: "notSupportedByDevice"
        case .invalidParameter: "invalidParameter"
        case .noSubjectFound: "noSubjectFound"
        case .frameRateTooLow: "frameRateTooLow"
        case .frameRateTooHigh: "frameRateTooHigh"
        case .cameraTCCMissing: "cameraTCCMissing"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}
