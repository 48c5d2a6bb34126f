// Button-triggered panorama: while a button is held the head turns slowly; released, it stops.
//   OPENDOCK_GIMBAL=sim OPENDOCK_BUTTONS=/dev/input/by-id/…-event-kbd example-button-panorama [PRESSES]
import DockKit
import Foundation

let presses = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }

try await DockAccessoryManager.shared.setSystemTrackingEnabled(false)
let events = try accessory.accessoryEvents
FileHandle.standardError.write(Data("hold a button to pan\n".utf8))
var done = 0
for await event in events {
    switch event {
    case .button(let id, true):
        print("button", id, "pressed: panning")
        try await accessory.setAngularVelocity(Vector3D(x: 0, y: 0.3, z: 0))
    case .button(let id, false):
        try await accessory.setAngularVelocity(Vector3D())
        var yaw = 0.0
        for await state in try accessory.motionStates {
            yaw = state.angularPositions.y
            break
        }
        print(String(format: "button %d released: stopped at yaw %+.1f°", id, yaw * 180 / .pi))
        done += 1
    case .cameraShutter, .cameraFlip, .cameraZoom:
        print("camera event", event)
    @unknown default:
        break
    }
    if done >= presses { break }
}
