import ControlClient
import DockCore
import Foundation
import TestSupport
import Testing

@testable import DockKit

/// Errors as Apple documents them, through dockd's socket: a dock whose dockd has gone is
/// `notConnected` for its calls and its streams, not a message of the service's.
@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct DockKitErrorsTests {
    @Test func aDockWhoseDockdWentAwayIsNotConnected() async throws {
        let demo = try ServedDemo()
        let status = try #require(try demo.get("/v1/status").object)
        let dock = try RemoteDock(connection: demo.client, identity: status["accessory"])
        let accessory = DockAccessory(remote: dock)
        try await DockAccessoryManager().setSystemTrackingEnabled(false)
        try await accessory.setFramingMode(.left)  // reached while dockd serves
        demo.shutDown()
        await #expect(throws: DockKitError.notConnected) { try await accessory.setFramingMode(.right) }
        // Once the watcher has undocked it, its streams say so too.
        dock.close()
        #expect(throws: DockKitError.notConnected) { _ = try accessory.motionStates }
        #expect(throws: DockKitError.notConnected) { _ = try accessory.trackingStates }
        #expect(throws: DockKitError.notConnected) { _ = try accessory.batteryStates }
        #expect(throws: DockKitError.notConnected) { try accessory.setOrientation(Vector3D()) }
        let yaw = try AxisLimit(positionRange: -0.5..<0.5, maximumSpeed: 0.3)
        #expect(throws: DockKitError.notConnected) { try accessory.setLimits(.init(yaw: yaw, pitch: nil, roll: nil)) }
    }
}
