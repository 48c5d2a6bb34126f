// Battery monitor: the dock's battery as a status view shows it, its name, charge and whether it
// charges, until it runs low. A dock without a battery says so (notSupportedByDevice).
//   example-battery-monitor [STATES]
import DockKit
import Foundation

let wanted = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 3

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

func observeBattery(_ accessory: DockAccessory) async {
    guard #available(iOS 18.0, *) else { return }
    do {
        var seen = 0
        for await battery in try accessory.batteryStates {
            let isCharging = battery.chargeState == .charging
            print(
                String(
                    format: "battery %@: %.0f %%, %@%@", battery.name, battery.batteryLevel * 100,
                    isCharging ? "charging" : "not charging", battery.lowBattery ? ", low" : ""))
            seen += 1
            if battery.lowBattery || seen >= wanted { break }
        }
    } catch DockKitError.notSupportedByDevice {
        print("this dock reports no battery")
    } catch {
        print("battery states refused:", error)
    }
}

await observeBattery(accessory)
