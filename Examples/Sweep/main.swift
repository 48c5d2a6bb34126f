// Sweep: with system tracking off (turned off before the dock is found, as Apple's article does),
// turn right for a while, left for twice as long, back to the middle, stop, and give tracking
// back to the system.
//   OPENDOCK_GIMBAL=sim example-sweep [SECONDS]
import DockKit
import Foundation

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let speed = 0.4  // rad/s

// Apple's order: system tracking off first, then look for a dock; the dock found takes it.
try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name, "with system tracking", tracking())

func tracking() -> String { DockAccessoryManager.shared.isSystemTrackingEnabled ? "on" : "off" }

func yawDegrees() async throws -> Double {
    for await state in try accessory.motionStates { return state.angularPositions.y * 180 / .pi }
    return .nan
}

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
