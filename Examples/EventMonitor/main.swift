// Event monitor: prints the accessory's events (its camera keys and buttons) and its state
// changes (a press of the tracking button says whether the system tracks now).
//   example-event-monitor [EVENTS]
// swift-format-ignore-file: NoLabelsInCasePatterns
import DockKit
import Foundation

let wanted = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 4

print("waiting for a dock…")
var docked: DockAccessory?
let changes = try DockAccessoryManager.shared.accessoryStateChanges
for await change in changes where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

// The rest of the state changes, as they come.
let watcher = Task {
    for await change in changes {
        switch change.state {
        case .docked:
            print("state: docked, tracking button", change.trackingButtonEnabled ? "on" : "off")
        case .undocked:
            print("state: undocked")
        @unknown default:
            break
        }
    }
}

let events = try accessory.accessoryEvents
FileHandle.standardError.write(Data("listening for events\n".utf8))
var count = 0
for await event in events {
    switch event {
    case .cameraShutter:
        print("event: shutter")
    case .cameraFlip:
        print("event: flip")
    case .cameraZoom(factor: let factor):
        print("event: zoom", factor > 0 ? "in" : "out")
    case .button(id: let id, pressed: let pressed):
        print("event: button \(id)", pressed ? "pressed" : "released")
    @unknown default:
        break
    }
    count += 1
    if count >= wanted { break }
}
// A state change may trail the last event by a moment.
try await Task.sleep(for: .milliseconds(500))
watcher.cancel()
