/// The errors of DockKit's public API.
public enum DockKitError: Error, Sendable, Hashable, CustomStringConvertible {
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
        case .frameRateTooHigh: "track() is called more than 30 times per second"
        case .cameraTCCMissing: "the camera cannot be opened (permission denied)"
        }
    }
}
