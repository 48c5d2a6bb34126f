import DockCore
import Foundation

/// The control API's JSON read back into DockKit's values, for a DockKit program that is
/// dockd's client. Lenient where dockd may add fields; nil where a value is missing or wrong.
extension ControlJSON {
    static func readRect(_ value: Any?) -> CGRect? {
        guard let r = value as? [String: Any], let x = r["x"] as? Double, let y = r["y"] as? Double,
            let w = r["width"] as? Double, let h = r["height"] as? Double
        else { return nil }
        return CGRect(x: x, y: y, width: w, height: h)
    }

    static func readVector(_ value: Any?) -> Vector3D? {
        guard let v = value as? [String: Any], let pitch = v["pitch"] as? Double, let yaw = v["yaw"] as? Double
        else { return nil }
        return Vector3D(x: pitch, y: yaw, z: v["roll"] as? Double ?? 0)
    }

    static func readSubject(_ value: Any) -> DockAccessory.TrackedSubjectType? {
        guard let s = value as? [String: Any], let text = s["id"] as? String, let id = UUID(uuidString: text),
            let rect = readRect(s["rect"])
        else { return nil }
        let rank = s["saliencyRank"] as? Int
        if s["kind"] as? String == "object" {
            return .object(DockAccessory.TrackedObject(identifier: id, rect: rect, saliencyRank: rank))
        }
        return .person(
            DockAccessory.TrackedPerson(
                identifier: id, rect: rect, saliencyRank: rank, speakingConfidence: s["speakingConfidence"] as? Double,
                lookingAtCameraConfidence: s["lookingAtCameraConfidence"] as? Double))
    }

    static func readTrackingState(_ object: [String: Any]) -> DockAccessory.TrackingState? {
        guard let time = object["time"] as? Double, let subjects = object["subjects"] as? [Any] else { return nil }
        return DockAccessory.TrackingState(
            time: Date(timeIntervalSince1970: time), trackedSubjects: subjects.compactMap(readSubject))
    }

    static func readMotionState(_ object: [String: Any]) -> DockAccessory.MotionState? {
        guard let positions = readVector(object["positions"]), let velocities = readVector(object["velocities"]),
            let timestamp = object["timestamp"] as? Double
        else { return nil }
        return DockAccessory.MotionState(
            angularPositions: positions, angularVelocities: velocities, timestamp: timestamp,
            error: object["error"] == nil ? nil : CommandedStateOnly())
    }

    static func readEvent(_ object: [String: Any]) -> DockAccessory.AccessoryEvent? {
        switch object["event"] as? String {
        case "cameraShutter": .cameraShutter
        case "cameraFlip": .cameraFlip
        case "cameraZoom": (object["factor"] as? Double).map { .cameraZoom(factor: $0) }
        case "button":
            (object["id"] as? Int).flatMap { id in (object["pressed"] as? Bool).map { .button(id: id, pressed: $0) } }
        default: nil
        }
    }

    static func readBattery(_ object: [String: Any]) -> DockAccessory.BatteryState? {
        let charges: [String: DockAccessory.BatteryChargeState] = [
            "charging": .charging, "notCharging": .notCharging, "notChargeable": .notChargeable,
        ]
        guard let name = object["name"] as? String, let level = object["batteryLevel"] as? Double,
            let charge = (object["chargeState"] as? String).flatMap({ charges[$0] })
        else { return nil }
        return DockAccessory.BatteryState(
            name: name, batteryLevel: level, chargeState: charge, lowBattery: object["lowBattery"] as? Bool ?? false)
    }

    static func readLimits(_ value: Any?) -> MotionLimits? {
        guard let object = value as? [String: Any] else { return nil }
        func axis(_ name: String) -> AxisLimit? {
            guard let a = object[name] as? [String: Any], let low = a["min"] as? Double, let high = a["max"] as? Double,
                let speed = a["maximumSpeed"] as? Double, low < high
            else { return nil }
            return try? AxisLimit(positionRange: low..<high, maximumSpeed: speed)
        }
        return MotionLimits(yaw: axis("yaw"), pitch: axis("pitch"), roll: axis("roll"))
    }

    /// An accessory's identity as the state events and /v1/accessories give it.
    static func readIdentity(_ value: Any?) -> (
        identifier: DockAccessory.Identifier, hardwareModel: String?, firmwareVersion: String?
    )? {
        guard let a = value as? [String: Any], let name = a["name"] as? String, let text = a["uuid"] as? String,
            let uuid = UUID(uuidString: text)
        else { return nil }
        return (
            DockAccessory.Identifier(name: name, category: .trackingStand, uuid: uuid), a["hardwareModel"] as? String,
            a["firmwareVersion"] as? String
        )
    }
}
