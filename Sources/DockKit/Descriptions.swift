import Foundation

// What Apple's types print in a debugger or a log line.

extension DockAccessory: CustomDebugStringConvertible {
    public var debugDescription: String {
        "DockAccessory(\(identifier.name), \(identifier.category.debugDescription), \(hardwareModel ?? "unknown model"), firmware \(firmwareVersion ?? "unknown"))"
    }
}

extension DockAccessory.Identifier.Category: CustomDebugStringConvertible {
    public var debugDescription: String {
        switch self {
        case .trackingStand: "trackingStand"
        }
    }
}

extension DockAccessory.TrackingState: CustomStringConvertible {
    public var description: String {
        let subjects = trackedSubjects.map { subject -> String in
            switch subject {
            case .person(let p):
                "person \(p.identifier.uuidString.prefix(8)) speaking "
                    + (p.speakingConfidence.map { String(format: "%.2f", $0) } ?? "–")
            case .object(let o): "object \(o.identifier.uuidString.prefix(8))"
            }
        }
        let list = subjects.isEmpty ? "" : ": " + subjects.joined(separator: ", ")
        return "TrackingState(\(trackedSubjects.count) subjects\(list))"
    }
}
