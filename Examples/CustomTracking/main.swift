// Custom tracking: the client finds the subject itself and hands DockKit observations at a
// fixed rate with the camera's intrinsics; the dock turns to frame it. Here the "detector" is
// a person standing still 20° to the right of where the head starts. Against a running dockd
// (its simulated gimbal, or a real head) or a simulated gimbal of its own (OPENDOCK_GIMBAL=sim).
//   example-custom-tracking [SECONDS] [RATE_HZ]
import DockKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.first.flatMap(Double.init) ?? 3
let rate = arguments.dropFirst().first.flatMap(Double.init) ?? 20
let personYaw = 20 * Double.pi / 180
let width = 1280.0
let height = 720.0
let focal = 900.0  // pixels

/// The newest head pose, kept by a task that reads the motion states.
actor Pose {
    var yaw = 0.0
    func set(_ value: Double) { yaw = value }
}

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

let pose = Pose()
let motion = try accessory.motionStates
let reader = Task {
    for await state in motion { await pose.set(state.angularPositions.y) }
}
try await Task.sleep(for: .milliseconds(200))
let start = await pose.yaw

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
let camera = DockAccessory.CameraInformation(
    captureDevice: "simulated", cameraPosition: .unspecified, orientation: .corrected,
    // K as Apple passes it: column-major, cx and cy in the third column.
    cameraIntrinsics: matrix_float3x3(
        columns: (SIMD3(Float(focal), 0, 0), SIMD3(0, Float(focal), 0), SIMD3(Float(width / 2), Float(height / 2), 1))),
    referenceDimensions: CGSize(width: width, height: height))
let calls = Int(seconds * rate)
var refused: [String: Int] = [:]
let clock = ContinuousClock()
var due = clock.now
for _ in 0..<calls {
    // Where the person appears in the image at this pose (unit rect, lower-left origin).
    let x = (width / 2 + focal * tan(personYaw - (await pose.yaw - start))) / width
    let face = CGRect(x: x - 0.04, y: 0.45, width: 0.08, height: 0.15)
    do {
        try await accessory.track(
            [DockAccessory.Observation(identifier: 1, type: .humanFace, rect: face)], cameraInformation: camera)
    } catch {
        refused[String(reflecting: error), default: 0] += 1
    }
    due = due.advanced(by: .seconds(1 / rate))
    try await clock.sleep(until: due)
}
let final = await pose.yaw - start
reader.cancel()
print(
    String(
        format: "%d track calls at %.0f Hz, %d refused; head turned %+.1f°, person at %+.1f°", calls, rate,
        refused.values.reduce(0, +), final * 180 / .pi, personYaw * 180 / .pi))
for (reason, count) in refused.sorted(by: { $0.key < $1.key }) { print("refused \(count)×: \(reason)") }
try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
