import DockCore
import DockKitInProcess
import Foundation
import Motion
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

/// A camera mounted on its side or upside down: the client's rects are in its picture's own
/// coordinates, and the head must still turn toward the subject in the room (a test per
/// orientation: someone to the room's right pans right, someone above tilts up).
@Suite(.tags(.unit)) struct CameraOrientationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var orientation: DockAccessory.CameraOrientation
        /// Where, in the picture, someone to the room's right and someone above show.
        var right: CGRect
        var above: CGRect
        var testDescription: String { "\(orientation)" }
    }

    static func box(_ x: Double, _ y: Double) -> CGRect { CGRect(x: x, y: y, width: 0.1, height: 0.1) }

    static let cases: [Case] = [
        Case(orientation: .corrected, right: box(0.75, 0.45), above: box(0.45, 0.75)),
        // Turned a quarter clockwise: the room's right is the picture's top, its top the picture's left.
        Case(orientation: .portrait, right: box(0.45, 0.75), above: box(0.15, 0.45)),
        // Upside down: right is left, up is down.
        Case(orientation: .landscapeLeft, right: box(0.15, 0.45), above: box(0.45, 0.15)),
        // Turned a quarter counter-clockwise: the room's right is the picture's bottom.
        Case(orientation: .portraitUpsideDown, right: box(0.45, 0.15), above: box(0.75, 0.45)),
    ]

    /// The command a single `track` of `rect` gives, on a fresh dock.
    func command(for rect: CGRect, _ orientation: DockAccessory.CameraOrientation) async throws -> Vector3D {
        let accessory = DockAccessory(
            local: LocalDock(name: "test", backend: SimulatedGimbal(model: GimbalModel(latency: 0))))
        accessory.engineDock.setSystemTrackingEnabled(false)
        let info = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: orientation,
            cameraIntrinsics: CameraIntrinsics(fx: 900, fy: 900, cx: 640, cy: 360).cameraMatrix,
            referenceDimensions: CGSize(width: 1280, height: 720))
        let face = DockAccessory.Observation(identifier: 1, type: .humanFace, rect: rect)
        try await accessory.track([face], cameraInformation: info)
        return accessory.engineDock.motors.lastCommand
    }

    @Test(arguments: cases) func theHeadTurnsTowardTheSubjectInTheRoom(_ c: Case) async throws {
        let right = try await command(for: c.right, c.orientation)
        #expect(right.y > 0.05 && abs(right.x) < 0.2 * right.y, "to the right: \(right)")
        // Pitch is positive down: someone above tilts the head up.
        let above = try await command(for: c.above, c.orientation)
        #expect(above.x < -0.05 && abs(above.y) < 0.2 * abs(above.x), "above: \(above)")
    }

    /// The camera turned upright with the rects: the same ray through the same subject.
    @Test func theCameraTurnsWithThePicture() {
        let camera = DockCore.CameraInformation(
            referenceDimensions: PixelSize(width: 1280, height: 720),
            intrinsics: CameraIntrinsics(fx: 900, fy: 950, cx: 600, cy: 380))
        let rect = NormalizedRect(x: 0.7, y: 0.2, width: 0.1, height: 0.1)
        for turns in 0...3 {
            let upright = UprightView.camera(camera, turns: turns)
            let turned = UprightView.rect(rect, turns: turns)
            // The subject's angles from the upright camera, and from the picture's own, turned by hand.
            let picture = ImageCoordinates(size: camera.referenceDimensions).pixels(x: rect.midX, y: rect.midY)
            let seen = ImageCoordinates(size: upright.referenceDimensions).pixels(x: turned.midX, y: turned.midY)
            let ray = camera.intrinsics.ray(through: picture)
            let uprightRay = upright.intrinsics.ray(through: seen)
            let expected: (Double, Double) =
                switch turns {
                case 1: (-ray.y, ray.x)
                case 2: (-ray.x, -ray.y)
                case 3: (ray.y, -ray.x)
                default: (ray.x, ray.y)
                }
            #expect(abs(uprightRay.x - expected.0) < 1e-9 && abs(uprightRay.y - expected.1) < 1e-9, "\(turns) turns")
        }
    }
}
