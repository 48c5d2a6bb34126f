// Look-around: a sequence of orientations, each awaited through the Progress it returns. Written
// as the seeds' recipe writes it: Spatial's angles, the synchronous setOrientation inside an
// async function.
//   OPENDOCK_GIMBAL=sim example-look-around
import DockKit
import Foundation
import Spatial

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }

/// Each orientation in turn, awaited through its progress (as an app's async function would).
func lookAround(_ accessory: DockAccessory, at targets: [Vector3D]) async throws {
    for target in targets {
        let progress = try accessory.setOrientation(target, duration: .seconds(0.8), relative: false)
        while !progress.isFinished && !progress.isCancelled { try await Task.sleep(for: .milliseconds(20)) }
        var pose = Vector3D()
        for await state in try accessory.motionStates {
            pose = state.angularPositions
            break
        }
        print(
            String(
                format: "arrived: yaw %+.1f° pitch %+.1f° (asked %+.1f° %+.1f°)", pose.y * 180 / .pi,
                pose.x * 180 / .pi, target.y * 180 / .pi, target.x * 180 / .pi))
    }
}

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
// The head's angles from Spatial's rotations: yaw, then pitch, then roll (`.yxz`).
func angles(yaw: Double, pitch: Double) -> Vector3D {
    Rotation3D(eulerAngles: EulerAngles(x: .radians(pitch), y: .radians(yaw), z: .radians(0), order: .yxz)).eulerAngles
}
try await lookAround(
    accessory,
    at: [angles(yaw: 0.5, pitch: 0), angles(yaw: -0.5, pitch: 0.15), angles(yaw: 0, pitch: -0.1), Vector3D()])
try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
