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

/// The frame variant of `track` from `import DockKit` alone: dockd's camera frames carry their
/// size and capture time, and go straight back as the image the observations were seen in.
@Suite(.serialized, .tags(.realTime), .notInFastRuns) struct DockKitCameraFrameTests {
    @Test func aProgramTracksOnDockdsFramesWithDockKitAlone() async throws {
        let demo = try ServedDemo()
        defer { demo.shutDown() }
        let status = try #require(try demo.get("/v1/status").object)
        let dock = try RemoteDock(connection: demo.client, identity: status["accessory"])
        let accessory = DockAccessory(remote: dock)
        var frames = try accessory.cameraFrames(maximumRate: 15).makeAsyncIterator()
        let frame = try #require(await frames.next())
        #expect(frame.width > 0 && frame.height > 0 && frame.jpeg.starts(with: [0xFF, 0xD8]), "\(frame.width)")
        // The same size from the JPEG itself, for a part that does not say it.
        let fromJPEG = DockAccessory.CameraFrame.jpegSize(frame.jpeg)
        #expect(fromJPEG == PixelSize(width: frame.width, height: frame.height))
        try await dock.send("systemTracking", ["enabled": false])
        let info = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: .corrected, cameraIntrinsics: nil,
            referenceDimensions: nil)
        let face = DockAccessory.Observation(
            identifier: 1, type: .humanFace, rect: CGRect(x: 0.8, y: 0.45, width: 0.1, height: 0.1))
        let local = demo.session.accessory
        let (calls, stale) = (local.trackCallCount, local.staleObservationCount)
        var turnedRight = false
        var tracked = 0
        // A program's loop: each new frame's observations, dated by that frame's capture. On a
        // loaded machine (a sanitized build) most frames arrive stale and the law sees the face
        // only now and then: the loop goes on, up to 60 frames, until the head has turned.
        var next: DockAccessory.CameraFrame? = frame
        while let image = next, tracked < 12 || (!turnedRight && tracked < 60) {
            try await accessory.track([face], cameraInformation: info, image: image)
            tracked += 1
            turnedRight = turnedRight || local.motors.lastCommand.y > 0
            next = await frames.next()
        }
        #expect(local.trackCallCount == calls + tracked)
        // A frame older than 0.1 s by the time it is tracked is counted stale and moves nothing;
        // the fresh ones turn the head toward the face on the right.
        let staleNow = local.staleObservationCount - stale
        #expect(turnedRight || staleNow == tracked, "\(staleNow) of \(tracked) stale")
        dock.close()
    }
}
