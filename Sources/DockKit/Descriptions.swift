import Foundation

// What Apple's types print in a debugger or a log line.

extension DockAccessory: CustomDebugStringConvertible {
    public var debugDescription: String {
        "DockAccessory(\(identifier.name), \(identifier.category.debugDescription), \(hardwareModel ?? "unknown model"), firmware \(firmwareVersion ?? "unknown"))"
    }
}
