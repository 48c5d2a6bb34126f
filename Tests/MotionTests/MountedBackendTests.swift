import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

/// A head mounted with an inverted axis, driven in the camera's directions.
@Suite(.tags(.unit)) struct MountedBackendTests {
    @Test func anInvertedAxisIsFlippedBothWays() throws {
        let model = GimbalModel(latency: 0, yawRange: -2.0...2.6, pitchRange: -0.4...0.6)
        let device = SimulatedGimbal(model: model)
        let mounted = MountedBackend(device, directions: MountDirections(panInverted: true))
        try mounted.setVelocity(Vector3D(x: 0.1, y: 0.2, z: 0), at: .zero)
        let second = MonotonicInstant.zero.advanced(bySeconds: 1)
        let reading = device.motionState(at: second)
        let seen = mounted.motionState(at: second)
        // The device was told to pan left; the engine sees the camera panning right.
        #expect(reading.angularPositions.y < -0.15 && seen.angularPositions.y == -reading.angularPositions.y)
        #expect(seen.angularPositions.x == reading.angularPositions.x && seen.angularPositions.x > 0.05)
        #expect(seen.angularVelocities.y == -reading.angularVelocities.y)
        // The device's stops, in the camera's directions.
        let yaw = try #require(mounted.capabilities.limits.yaw)
        #expect(yaw.positionRange == -2.6..<2.0)
        #expect(mounted.capabilities.limits.pitch == device.capabilities.limits.pitch)
        #expect(MountedBackend(device, directions: .normal).capabilities == device.capabilities)
    }

    @Test func aSimulatedHeadMountedInvertedShowsTheCameraTurningTheOtherWay() throws {
        var model = GimbalModel(latency: 0)
        model.mount = MountDirections(tiltInverted: true)
        let device = SimulatedGimbal(model: model)
        try device.setVelocity(Vector3D(x: 0.1, y: 0.1, z: 0), at: .zero)
        let second = MonotonicInstant.zero.advanced(bySeconds: 1)
        let reading = device.motionState(at: second).angularPositions
        let camera = device.cameraPose(at: second)
        #expect(reading.x > 0.05 && camera.x == -reading.x && camera.y == reading.y)
    }
}
