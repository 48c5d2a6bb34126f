// The service architecture of Apple's sample app: DockKit isolated in an actor that follows the
// docked accessory and switches between system, custom and manual tracking, and a camera
// delegate that the accessory's camera keys (shutter, flip, zoom) drive. The camera here only
// prints what it is asked to do; on Linux the camera belongs to dockd.
//   example-dock-control-service [EVENTS]
// swift-format-ignore-file: NoLabelsInCasePatterns
import DockKit
import Foundation
import Synchronization

let expectedEvents = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 3

actor DockControlService {
    private var accessory: DockAccessory?
    private var trackingMode: TrackingMode = .system
    /// Whether the docked accessory's configuration has reached dockd: a mode chosen before
    /// then could be overtaken by the configuration's own choice.
    private(set) var isConfigured = false

    enum TrackingMode {
        case system
        case custom
        case manual
    }

    func start() async throws {
        for await stateChange in try DockAccessoryManager.shared.accessoryStateChanges {
            switch stateChange.state {
            case .docked:
                guard let newAccessory = stateChange.accessory else { continue }
                accessory = newAccessory
                try await configureAccessory(newAccessory)
                isConfigured = true
            case .undocked:
                accessory = nil
                isConfigured = false
            @unknown default:
                break
            }
        }
    }

    private func configureAccessory(_ accessory: DockAccessory) async throws {
        try await DockAccessoryManager.shared.setSystemTrackingEnabled(true)
        trackingMode = .system
    }

    func setTrackingMode(_ mode: TrackingMode) async throws {
        trackingMode = mode
        let systemEnabled = mode == .system
        try await DockAccessoryManager.shared.setSystemTrackingEnabled(systemEnabled)
    }

    var isConnected: Bool {
        accessory != nil
    }

    var dockedAccessory: DockAccessory? { accessory }
}

protocol CameraCaptureDelegate: AnyObject, Sendable {
    func switchCamera() async
    func startOrStopCapture() async
    func zoom(factor: Double) async
}

extension DockControlService {
    func subscribeToAccessoryEvents(
        _ accessory: DockAccessory,
        cameraDelegate: CameraCaptureDelegate
    ) {
        guard #available(iOS 17.4, *) else { return }
        Task {
            do {
                for await event in try accessory.accessoryEvents {
                    switch event {
                    case .cameraShutter:
                        await cameraDelegate.startOrStopCapture()
                    case .cameraFlip:
                        await cameraDelegate.switchCamera()
                    case .cameraZoom(factor: let factor):
                        await cameraDelegate.zoom(factor: factor)
                    case .button(id: _, pressed: _):
                        break
                    @unknown default:
                        break
                    }
                }
            } catch {
                print("accessory events refused:", error)
            }
        }
    }
}

/// The capture side: what a camera app would do, printed, and counted so the program can end.
final class PrintingCapture: CameraCaptureDelegate {
    private let state = Mutex(Counters())
    struct Counters {
        var capturing = false
        var front = true
        var events = 0
    }

    var events: Int { state.withLock { $0.events } }

    func switchCamera() async {
        let front = state.withLock {
            $0.front.toggle()
            $0.events += 1
            return $0.front
        }
        print("camera switched to the", front ? "front" : "back")
    }

    func startOrStopCapture() async {
        let capturing = state.withLock {
            $0.capturing.toggle()
            $0.events += 1
            return $0.capturing
        }
        print(capturing ? "capture started" : "capture stopped")
    }

    func zoom(factor: Double) async {
        state.withLock { $0.events += 1 }
        print("zoom", factor > 0 ? "in" : "out")
    }
}

func yawDegrees(_ accessory: DockAccessory) async throws -> Double {
    for await state in try accessory.motionStates { return state.angularPositions.y * 180 / .pi }
    return .nan
}

func systemTracking() -> String { DockAccessoryManager.shared.isSystemTrackingEnabled ? "on" : "off" }

let service = DockControlService()
let running = Task { try await service.start() }
print("waiting for a dock…")
var found: DockAccessory?
while found == nil {
    try await Task.sleep(for: .milliseconds(50))
    if await service.isConfigured { found = await service.dockedAccessory }
}
guard let accessory = found else { fatalError("unreachable") }
print("connected to", accessory.identifier.name, "with system tracking", systemTracking())

// Manual: the app turns the head itself; system tracking is off meanwhile.
try await service.setTrackingMode(.manual)
let before = try await yawDegrees(accessory)
try await accessory.setAngularVelocity(Vector3D(x: 0, y: 0.3, z: 0))
try await Task.sleep(for: .seconds(1))
try await accessory.setAngularVelocity(Vector3D())
try await Task.sleep(for: .milliseconds(300))
print(
    String(
        format: "manual: turned %+.1f° with system tracking %@", try await yawDegrees(accessory) - before,
        systemTracking()))
try await service.setTrackingMode(.system)
print("system: tracking", systemTracking())

let capture = PrintingCapture()
await service.subscribeToAccessoryEvents(accessory, cameraDelegate: capture)
FileHandle.standardError.write(Data("press the camera keys\n".utf8))
while capture.events < expectedEvents { try await Task.sleep(for: .milliseconds(20)) }
running.cancel()
print("done after \(capture.events) camera events")
