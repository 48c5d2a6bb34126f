// Sweep: with system tracking off, turn right for a while, left for twice as long, back to the
// middle, stop, and give tracking back to the system.
//   OPENDOCK_GIMBAL=sim example-sweep [SECONDS]
import DockKit
import Foundation

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let speed = 0.4  // rad/s

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

func yawDegrees() async throws -> Double {
    for await state in try accessory.motionStates { return state.angularPositions.y * 180 / .pi }
    return .nan
}

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
for (label, rate, duration) in [("right", speed, seconds), ("left", -speed, 2 * seconds), ("back", speed, seconds)] {
    try await accessory.setAngularVelocity(Vector3D(x: 0, y: rate, z: 0))
    try await Task.sleep(for: .seconds(duration))
    print(String(format: "%@: yaw %+.1f°", label, try await yawDegrees()))
}
try await accessory.setAngularVelocity(Vector3D())
try await Task.sleep(for: .seconds(0.3))
try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
print(
    String(
        format: "stopped at yaw %+.1f°, system tracking %@", try await yawDegrees(),
        DockAccessoryManager.shared.isSystemTrackingEnabled ? "on" : "off"))
