import DockCore
import Foundation

/// A `track` call as a DockKit session carries it, both ways: the observations, the camera
/// and how old the observations are when sent (seconds; dockd dates them by its own clock).
package enum TrackMessage {
    static let types: [String: DockAccessory.ObservationType] = [
        "humanFace": .humanFace, "humanBody": .humanBody, "object": .object,
    ]
    static let orientations: [String: DockAccessory.CameraOrientation] = [
        "corrected": .corrected, "portrait": .portrait, "portraitUpsideDown": .portraitUpsideDown,
        "landscapeLeft": .landscapeLeft, "landscapeRight": .landscapeRight, "faceUp": .faceUp,
        "faceDown": .faceDown, "unknown": .unknown,
    ]

    /// The oldest observation a session takes (s); older ones are sent as this old (stale alike).
    package static let maximumAge = 60.0

    package static func fields(
        _ observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double
    ) -> [String: Any] {
        var cameraFields: [String: Any] = [
            "orientation": orientations.first { $0.value == camera.orientation }?.key ?? "unknown"
        ]
        if let size = camera.referenceDimensions {
            cameraFields["width"] = Double(size.width)
            cameraFields["height"] = Double(size.height)
        }
        if let k = camera.cameraIntrinsics.map(CameraIntrinsics.init(cameraMatrix:)) {
            cameraFields["intrinsics"] = [k.fx, k.fy, k.cx, k.cy]
        }
        return [
            "age": age, "camera": cameraFields,
            "observations": observations.map { o -> [String: Any] in
                var fields: [String: Any] = [
                    "identifier": o.identifier, "type": types.first { $0.value == o.type }?.key ?? "object",
                    "rect": [o.rect.origin.x, o.rect.origin.y, o.rect.width, o.rect.height].map { Double($0) },
                ]
                if let yaw = o.faceYawAngle { fields["faceYaw"] = yaw.converted(to: .radians).value }
                return fields
            },
        ]
    }

    /// Reads a session's `track` request strictly: each problem names the field.
    package static func parse(_ fields: JSONFields) throws(JSONFieldError) -> (
        observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double
    ) {
        let age = try fields.number("age", in: 0...maximumAge) ?? 0
        guard let cameraFields = try fields.object("camera") else { throw fields.error("camera", "is required") }
        let camera = try self.camera(cameraFields)
        let observations =
            try fields.objects("observations") { (o) throws(JSONFieldError) -> DockAccessory.Observation in
                guard let identifier = try o.integer("identifier", in: Int(Int32.min)...Int(Int32.max)) else {
                    throw o.error("identifier", "is required")
                }
                guard let typeName = try o.string("type"), let type = types[typeName] else {
                    throw o.error("type", "is humanFace, humanBody or object")
                }
                guard let rect = try o.numbers("rect"), rect.count == 4, rect.allSatisfy({ abs($0) <= 10 }) else {
                    throw o.error("rect", "is [x, y, width, height], unit coordinates, origin lower left")
                }
                let yaw = try o.number("faceYaw", in: -Double.pi...Double.pi)
                try o.finish(help: "docs/dockkit.md, \"The session\"")
                return DockAccessory.Observation(
                    identifier: identifier, type: type,
                    rect: CGRect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]),
                    faceYawAngle: yaw.map { Measurement(value: $0, unit: .radians) })
            } ?? []
        try fields.finish(help: "docs/dockkit.md, \"The session\"")
        return (observations, camera, age)
    }

    private static func camera(_ fields: JSONFields) throws(JSONFieldError) -> DockAccessory.CameraInformation {
        let orientationName = try fields.string("orientation") ?? "corrected"
        guard let orientation = orientations[orientationName] else {
            throw fields.error("orientation", "is one of \(orientations.keys.sorted().joined(separator: ", "))")
        }
        let width = try fields.number("width", in: 1...100_000)
        let height = try fields.number("height", in: 1...100_000)
        var intrinsics: CameraIntrinsics?
        if let k = try fields.numbers("intrinsics") {
            guard k.count == 4, k.allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else {
                throw fields.error("intrinsics", "is [fx, fy, cx, cy] in pixels")
            }
            intrinsics = CameraIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3])
        }
        try fields.finish(help: "docs/dockkit.md, \"The session\"")
        return DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: orientation,
            cameraIntrinsics: intrinsics?.cameraMatrix,
            referenceDimensions: width.flatMap { w in height.map { CGSize(width: w, height: $0) } })
    }
}
