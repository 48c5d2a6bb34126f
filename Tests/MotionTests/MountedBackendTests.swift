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

    /// A head whose units are off: the engine asks for camera angles and rates, and gets them.
    @Test func axisScalesTurnCameraAnglesIntoTheHeadsUnits() throws {
        var model = GimbalModel(maximumAcceleration: 1000, latency: 0, yawRange: -2.0...2.0, pitchRange: -0.5...0.5)
        model.scales = AxisScales(pan: 0.8, tilt: 1.25)
        let device = SimulatedGimbal(model: model)
        let mounted = MountedBackend(
            device, directions: MountDirections(panInverted: true), scales: AxisScales(pan: 0.8, tilt: 1.25))
        try mounted.setVelocity(Vector3D(x: 0.1, y: 0.2, z: 0), at: .zero)
        let second = MonotonicInstant.zero.advanced(bySeconds: 1)
        // The head was told 0.25 rad/s of its own pan units, the other way: the camera turned 0.2 rad.
        #expect(abs(device.motionState(at: second).angularPositions.y + 0.25) < 1e-3)
        let camera = device.cameraPose(at: second)
        let seen = mounted.motionState(at: second).angularPositions
        #expect(abs(camera.y + 0.2) < 1e-3 && abs(camera.x - 0.1) < 1e-3, "\(camera)")
        // What the engine reads is where the camera points... on the inverted pan, mirrored.
        #expect(abs(seen.y - 0.2) < 1e-3 && abs(seen.x - 0.1) < 1e-3, "\(seen)")
        // The stops and top speeds, in camera angles.
        let yaw = try #require(mounted.capabilities.limits.yaw)
        #expect(abs(yaw.positionRange.lowerBound + 1.6) < 1e-9 && abs(yaw.positionRange.upperBound - 1.6) < 1e-9)
        #expect(abs(yaw.maximumSpeed - 0.8 * (device.capabilities.limits.yaw?.maximumSpeed ?? 0)) < 1e-9)
        let pitch = try #require(mounted.capabilities.limits.pitch)
        #expect(abs(pitch.positionRange.upperBound - 0.625) < 1e-9)
    }
}
