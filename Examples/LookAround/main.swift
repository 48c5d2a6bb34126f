// Look-around: a sequence of orientations, each awaited through the Progress it returns.
//   OPENDOCK_GIMBAL=sim example-look-around
import DockKit
import Foundation

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
try await lookAround(
    accessory,
    at: [Vector3D(x: 0, y: 0.5, z: 0), Vector3D(x: 0.15, y: -0.5, z: 0), Vector3D(x: -0.1, y: 0, z: 0), Vector3D()])
try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
