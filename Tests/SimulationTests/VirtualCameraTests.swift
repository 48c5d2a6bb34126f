import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import Simulation

@Suite(.tags(.unit)) struct VirtualCameraTests {
    let camera = VirtualCamera(
        worldSize: PixelSize(width: 3200, height: 1200),
        worldIntrinsics: CameraIntrinsics(
            horizontalFieldOfView: 110 * .pi / 180, size: PixelSize(width: 3200, height: 1200)),
        viewSize: PixelSize(width: 640, height: 360),
        viewIntrinsics: CameraIntrinsics(
            horizontalFieldOfView: 60 * .pi / 180, size: PixelSize(width: 640, height: 360)))

    /// The brightest pixel of a gray frame.
    func brightest(_ frame: Frame) -> PixelPoint {
        let i = frame.pixels.indices.max { frame.pixels[$0] < frame.pixels[$1] }!
        return PixelPoint(x: Double(i % frame.width), y: Double(i / frame.width))
    }

    @Test(arguments: [Vector3D(), Vector3D(x: 0.05, y: 0.3, z: 0), Vector3D(x: -0.1, y: -0.25, z: 0)])
    func remapPutsAWorldPointWhereTheIntrinsicsSay(_ pose: Vector3D) throws {
        // A bright dot in the world at a known direction: 20° right and 5° down of the pose's
        // optical axis, computed from the intrinsics alone.
        let yaw = pose.y + 20 * .pi / 180
        let pitch = pose.x + 5 * .pi / 180
        let direction = Vector3D(x: sin(yaw) * cos(pitch), y: sin(pitch), z: cos(yaw) * cos(pitch))
        let worldPoint = try #require(camera.worldIntrinsics.project(direction))
        var world = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: 3200, height: 1200, format: .gray)
        world.drawCircle(at: worldPoint, radius: 2, color: .white, thickness: -1)

        let view = try camera.render(world, pose: pose)
        let found = brightest(view)
        let predicted = try #require(camera.project(worldPoint: worldPoint, pose: pose))
        #expect(hypot(found.x - predicted.x, found.y - predicted.y) < 2.5)
        // Straight from the view's intrinsics: x = cx + fx·tan(20°) when there is no tilt.
        if pose.x == 0 {
            let k = camera.viewIntrinsics
            #expect(abs(predicted.x - (k.cx + k.fx * tan(20 * .pi / 180))) < 1e-6)
        }
    }

    @Test func poseCenteringAPointPutsItAtTheViewCentre() throws {
        let point = PixelPoint(x: 2400, y: 500)
        let pose = camera.pose(centering: point)
        let projected = try #require(camera.project(worldPoint: point, pose: pose))
        #expect(abs(projected.x - 320) < 1e-6 && abs(projected.y - 180) < 1e-6)
    }

    @Test func renderIsNotACropAtAnAngle() throws {
        // Straight lines stay straight, but a rectangle off-axis is no longer a rectangle: the
        // projected corners of a square differ in height left and right.
        let pose = Vector3D(x: 0, y: 0.4, z: 0)
        let left = try #require(camera.project(worldPoint: PixelPoint(x: 2000, y: 400), pose: pose))
        let leftLow = try #require(camera.project(worldPoint: PixelPoint(x: 2000, y: 800), pose: pose))
        let right = try #require(camera.project(worldPoint: PixelPoint(x: 2400, y: 400), pose: pose))
        let rightLow = try #require(camera.project(worldPoint: PixelPoint(x: 2400, y: 800), pose: pose))
        #expect(abs((leftLow.y - left.y) - (rightLow.y - right.y)) > 1)
    }
}
