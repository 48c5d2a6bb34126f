import DockCore
import DockKitInProcess
import Foundation
import Motion
import Spatial
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

/// Code shaped like Apple's DockKit samples compiles against `import DockKit`: the type paths,
/// the `setOrientation` forms and defaults, `Rotation3D`'s initialisers; and the semantics
/// Apple documents.
@Suite(.tags(.unit)) struct AppleShapesTests {
    /// Written as Apple's documentation writes it; that it compiles is most of the test.
    func sampleShapedCode(_ accessory: DockAccessory) async throws -> [String] {
        var seen: [String] = []
        let limit: DockAccessory.Limits.Limit = try .init(positionRange: -1.0..<1.0, maximumSpeed: 1)
        try accessory.setLimits(DockAccessory.Limits(yaw: limit, pitch: nil, roll: nil))
        let charge: DockAccessory.BatteryChargeState = .notChargeable
        let kind: DockAccessory.Observation.ObservationType = .humanFace
        let state: DockAccessory.State = .docked
        let category: DockAccessory.Category = accessory.identifier.category
        seen.append("\(charge) \(kind) \(state.debugDescription) \(category)")
        let rotation = Rotation3D(angle: .degrees(30), axis: .y)
        let progress = try startSynchronously(accessory, rotation)
        seen.append(String(format: "%.1f", rotation.eulerAngles.y * 180 / .pi))
        while !progress.isFinished && !progress.isCancelled { try await Task.sleep(for: .milliseconds(10)) }
        let back = try accessory.setOrientation(Vector3D(), duration: .seconds(0.2))
        while !back.isFinished && !back.isCancelled { try await Task.sleep(for: .milliseconds(10)) }
        for await motion in try accessory.motionStates {
            seen.append(motion.timestamp > 1_600_000_000 ? "epoch" : "not epoch")
            break
        }
        return seen
    }

    /// DockKit's synchronous form, from synchronous code (in an async function the async form is chosen).
    func startSynchronously(_ accessory: DockAccessory, _ rotation: Rotation3D) throws -> Progress {
        try accessory.setOrientation(rotation, relative: false)
    }

    @Test func samplesCompileAndRun() async throws {
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: SimulatedGimbal()))
        accessory.engineDock.startMotionLoop()
        accessory.engineDock.setSystemTrackingEnabled(false)
        let seen = try await sampleShapedCode(accessory)
        #expect(seen == ["notChargeable humanFace docked trackingStand", "30.0", "epoch"])
        #expect(abs(accessory.limits.yaw!.positionRange.upperBound - 1) < 1e-12)
        // What Apple's types print.
        #expect(
            accessory.debugDescription == "DockAccessory(test, trackingStand, unknown model, firmware unknown)",
            "\(accessory.debugDescription)")
        #expect(accessory.identifier.category.debugDescription == "trackingStand")
        let state = DockAccessory.TrackingState(
            time: Date(), trackedSubjects: [.object(.init(identifier: UUID(), rect: .zero, saliencyRank: 1))])
        #expect(state.description.hasPrefix("TrackingState(1 subjects: object "), "\(state)")
    }

    @Test func trackIsRefusedWhileSystemTrackingIsOn() async throws {
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: SimulatedGimbal()))
        let camera = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .front, orientation: .corrected, cameraIntrinsics: nil,
            referenceDimensions: CGSize(width: 1280, height: 720))
        let face = DockAccessory.Observation(
            identifier: 1, type: .humanFace, rect: CGRect(x: 0.4, y: 0.4, width: 0.1, height: 0.1))
        await #expect(throws: DockKitError.notSupported) {
            try await accessory.track([face], cameraInformation: camera)
        }
        accessory.engineDock.setSystemTrackingEnabled(false)
        try await accessory.track([face], cameraInformation: camera)
    }

    @Test func theRegionOfInterestOutlivesSystemTracking() async throws {
        let accessory = DockAccessory(local: LocalDock(name: "test", backend: SimulatedGimbal()))
        let square = CGRect(x: 0.21875, y: 0, width: 0.5625, height: 1)
        try await accessory.setRegionOfInterest(square)
        accessory.engineDock.setSystemTrackingEnabled(false)
        #expect(accessory.regionOfInterest == square, "custom tracking keeps the region")
    }

    @Test func theTrackingButtonIsReportedOnlyWhenThereIsOne() async throws {
        let manager = DockAccessoryManager()
        let plain = LocalDock(name: "plain", backend: SimulatedGimbal())
        manager.dock(plain)
        let withButton = LocalDock(name: "remote", backend: SimulatedGimbal())
        manager.dock(withButton, trackingButtonEnabled: true)
        let flags = Protected<[String: Bool]>([:])
        let id = manager.observeStateChanges { change in
            flags.withLock { $0[change.accessory?.identifier.name ?? ""] = change.trackingButtonEnabled }
        }
        #expect(flags.withLock { $0 } == ["plain": false, "remote": true])
        // A press of the button: tracking off, and the dock says so as Apple's sample shows it.
        manager.trackingButtonPressed(enabling: false)
        #expect(flags.withLock { $0 } == ["plain": false, "remote": false])
        #expect(!withButton.isSystemTrackingEnabled && !plain.isSystemTrackingEnabled)
        manager.trackingButtonPressed(enabling: true)
        #expect(flags.withLock { $0 }["remote"] == true && withButton.isSystemTrackingEnabled)
        manager.stopObservingStateChanges(id)
    }

    @Test func errorsSayWhatHappenedInTheirOwnWords() {
        let error: any Error = DockKitError.frameRateTooHigh
        #expect(error.localizedDescription == DockKitError.frameRateTooHigh.description)
        #expect(DockKitError.frameRateTooHigh.description.contains("orientation and animations: 2"))
        #expect(DockKitError.frameRateTooLow.debugDescription.hasPrefix("DockKitError.frameRateTooLow"))
        for error in DockKitError.allCases { #expect(DockKitError(name: error.name) == error) }
    }

    /// Spatial's names, through `import Spatial` beside `import DockKit` (never ambiguous): the
    /// head's own angles are the `.yxz` order, and the other orders compose the same turns.
    @Test func spatialsEulerAnglesMatchTheHeadsAngles() {
        let head = Vector3D(x: 0.2, y: 0.7, z: -0.1)
        let byOrder = Rotation3D(
            eulerAngles: EulerAngles(x: .radians(0.2), y: .radians(0.7), z: .radians(-0.1), order: .yxz))
        let byHead = Rotation3D(eulerAngles: head)
        #expect(abs(byOrder.w - byHead.w) + abs(byOrder.x - byHead.x) + abs(byOrder.y - byHead.y) < 1e-12)
        #expect((byOrder.eulerAngles - head).length < 1e-12)
        // Two turns about the same axis add up, whatever order the third comes in.
        let yawOnly = Rotation3D(eulerAngles: EulerAngles(x: .degrees(0), y: .degrees(30), z: .degrees(0), order: .zxy))
        #expect(abs(yawOnly.eulerAngles.y - 30 * Double.pi / 180) < 1e-12)
        #expect(Rotation3D(angle: .degrees(90), axis: .y) * Rotation3D(angle: .degrees(-90), axis: .y) == .identity)
    }

    /// `CameraInformation` in Apple's shape: a device type by Apple's name, the intrinsic matrix
    /// K column-major (`columns.2.x` is cx), read back as the controller's focal lengths.
    @Test func cameraInformationTakesApplesMatrix() throws {
        let k = matrix_float3x3(columns: (SIMD3(910, 0, 0), SIMD3(0, 905, 0), SIMD3(640, 360, 1)))
        #expect(k[2, 0] == 640 && k[2, 1] == 360 && k[0, 0] == 910)
        let info = DockAccessory.CameraInformation(
            captureDevice: .builtInWideAngleCamera, cameraPosition: .front, orientation: .corrected,
            cameraIntrinsics: k, referenceDimensions: nil)
        let core = try info.core()
        #expect(core.intrinsics == CameraIntrinsics(fx: 910, fy: 905, cx: 640, cy: 360))
        #expect(core.referenceDimensions == PixelSize(width: 1280, height: 720))
        #expect(core.intrinsics.cameraMatrix == k)
        let linux = DockAccessory.CameraInformation(
            captureDevice: "/dev/video0", cameraPosition: .unspecified, orientation: .corrected, cameraIntrinsics: nil,
            referenceDimensions: CGSize(width: 640, height: 480))
        #expect(linux.captureDevice?.rawValue == "/dev/video0")
    }
}
