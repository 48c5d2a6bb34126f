import DockCore
import Foundation

/// DockKit's values as the control API writes them and a DockKit client reads them back:
/// plain JSON objects, angles in radians, rects as {x, y, width, height} in DockKit's own
/// coordinates. One codec for both ends.
package enum ControlJSON {
    package static func rect(_ r: CGRect) -> [String: Any] {
        // Doubles: Foundation's JSON writer on Linux refuses CGFloat.
        ["x": Double(r.origin.x), "y": Double(r.origin.y), "width": Double(r.width), "height": Double(r.height)]
    }

    package static func vector(_ v: Vector3D) -> [String: Any] { ["pitch": v.x, "yaw": v.y, "roll": v.z] }

    package static func subject(_ subject: DockAccessory.TrackedSubjectType) -> [String: Any] {
        switch subject {
        case .person(let p):
            var out: [String: Any] = ["kind": "person", "id": p.identifier.uuidString, "rect": rect(p.rect)]
            out["saliencyRank"] = p.saliencyRank
            out["speakingConfidence"] = p.speakingConfidence
            out["lookingAtCameraConfidence"] = p.lookingAtCameraConfidence
            return out
        case .object(let o):
            var out: [String: Any] = ["kind": "object", "id": o.identifier.uuidString, "rect": rect(o.rect)]
            out["saliencyRank"] = o.saliencyRank
            return out
        }
    }

    package static func trackingState(_ state: DockAccessory.TrackingState) -> [String: Any] {
        ["time": state.time.timeIntervalSince1970, "subjects": state.trackedSubjects.map(subject)]
    }

    package static func motionState(_ state: DockAccessory.MotionState) -> [String: Any] {
        var out: [String: Any] = [
            "positions": vector(state.angularPositions), "velocities": vector(state.angularVelocities),
            "timestamp": state.timestamp,
        ]
        if let error = state.error { out["error"] = "\(error)" }
        return out
    }

    package static func event(_ event: DockAccessory.AccessoryEvent) -> [String: Any] {
        switch event {
        case .cameraShutter: ["event": "cameraShutter"]
        case .cameraFlip: ["event": "cameraFlip"]
        case .cameraZoom(let factor): ["event": "cameraZoom", "factor": factor]
        case .button(let id, let pressed): ["event": "button", "id": id, "pressed": pressed]
        }
    }

    package static func battery(_ b: DockAccessory.BatteryState) -> [String: Any] {
        let charge =
            switch b.chargeState {
            case .charging: "charging"
            case .notCharging: "notCharging"
            case .notChargeable: "notChargeable"
            }
        return ["name": b.name, "batteryLevel": b.batteryLevel, "chargeState": charge, "lowBattery": b.lowBattery]
    }

    package static func stateChange(_ change: DockAccessory.StateChange) -> [String: Any] {
        var out: [String: Any] = [
            "state": change.state == .docked ? "docked" : "undocked",
            "trackingButtonEnabled": change.trackingButtonEnabled,
        ]
        if let a = change.accessory { out["accessory"] = accessory(a) }
        return out
    }

    package static func accessory(_ a: DockAccessory) -> [String: Any] {
        accessory(a.identifier, hardwareModel: a.hardwareModel, firmwareVersion: a.firmwareVersion)
    }

    package static func accessory(_ dock: any InProcessDock) -> [String: Any] {
        accessory(dock.identifier, hardwareModel: dock.hardwareModel, firmwareVersion: dock.firmwareVersion)
    }

    static func accessory(_ identifier: DockAccessory.Identifier, hardwareModel: String?, firmwareVersion: String?)
        -> [String: Any]
    {
        var out: [String: Any] = [
            "name": identifier.name, "uuid": identifier.uuid.uuidString, "category": "trackingStand",
        ]
        out["hardwareModel"] = hardwareModel
        out["firmwareVersion"] = firmwareVersion
        return out
    }

    package static func limits(_ l: MotionLimits) -> [String: Any] {
        func axis(_ a: AxisLimit?) -> Any {
            guard let a else { return NSNull() }
            return [
                "min": a.positionRange.lowerBound, "max": a.positionRange.upperBound, "maximumSpeed": a.maximumSpeed,
            ]
        }
        return ["yaw": axis(l.yaw), "pitch": axis(l.pitch), "roll": axis(l.roll)]
    }

    package static func framingMode(_ mode: DockAccessory.FramingMode) -> String {
        switch mode {
        case .automatic: "automatic"
        case .center: "center"
        case .left: "left"
        case .right: "right"
        }
    }

    package static let framingModes: [String: DockAccessory.FramingMode] = [
        "automatic": .automatic, "center": .center, "left": .left, "right": .right,
    ]
    package static func animationName(_ animation: DockAccessory.Animation) -> String {
        animations.first { $0.value == animation }?.key ?? "yes"
    }

    package static let animations: [String: DockAccessory.Animation] = [
        "yes": .yes, "no": .no, "wakeup": .wakeup, "kapow": .kapow,
    ]

    /// One server-sent event carrying a JSON object.
    package static func serverSentEvent(_ name: String, _ object: [String: Any]) -> [UInt8] {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return Array("event: \(name)\ndata: ".utf8) + Array(data) + Array("\n\n".utf8)
    }
}
