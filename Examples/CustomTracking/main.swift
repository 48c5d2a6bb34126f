// Custom tracking: the client finds the subject itself and hands DockKit observations at a
// fixed 20 Hz with the camera's intrinsics; the dock turns to frame it. Here the "detector" is
// a person standing still 20° to the right of where the head starts.
//   OPENDOCK_GIMBAL=sim example-custom-tracking [SECONDS]
import DockKit
import Foundation

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let personYaw = 20 * Double.pi / 180
let width = 1280.0, height = 720.0, focal = 900.0  // pixels

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
let camera = DockAccessory.CameraInformation(
    captureDevice: "simulated", cameraPosition: .unspecified, orientation: .corrected,
    cameraIntrinsics: CameraIntrinsics(fx: focal, fy: focal, cx: width / 2, cy: height / 2),
    referenceDimensions: CGSize(width: width, height: height))
let calls = Int(seconds * 20)
var refused = 0
for _ in 0..<calls {
    var yaw = 0.0
    for await state in try accessory.motionStates {
        yaw = state.angularPositions.y
        break
    }
    // Where the person appears in the image at this pose (unit rect, lower-left origin).
    let x = (width / 2 + focal * tan(personYaw - yaw)) / width
    let face = CGRect(x: x - 0.04, y: 0.45, width: 0.08, height: 0.15)
    do {
        try await accessory.track([DockAccessory.Observation(identifier: 1, type: .humanFace, rect: face)], cameraInformation: camera)
    } catch {
        refused += 1
    }
    try await Task.sleep(for: .milliseconds(50))
}
var final = 0.0
for await state in try accessory.motionStates {
    final = state.angularPositions.y
    break
}
print(String(format: "%d track calls, %d refused; head at yaw %+.1f°, person at %+.1f°", calls, refused,
             final * 180 / .pi, personYaw * 180 / .pi))
