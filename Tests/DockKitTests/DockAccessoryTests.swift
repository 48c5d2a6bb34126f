import DockCore
import Foundation
import Motion
import Testing
@testable import DockKit

@Suite struct DockAccessoryTests {
    let camera = CameraInformation(size: PixelSize(width: 1280, height: 720), horizontalFieldOfViewDegrees: 60)

    func accessory(clock: ManualClock = ManualClock()) -> (DockAccessory, SimulatedGimbal, ManualClock) {
        let gimbal = SimulatedGimbal(model: GimbalModel(latency: 0))
        return (DockAccessory(name: "test", backend: gimbal, clock: clock), gimbal, clock)
    }

    func face(x: Double, stamp: FrameStamp) -> Observation {
        Observation(identifier: 1, kind: .humanFace, rect: NormalizedRect(x: x, y: 0.45, width: 0.1, height: 0.1), stamp: stamp)
    }

    @Test func trackTurnsTowardAnOffCentreSubject() throws {
        let (dock, gimbal, _) = accessory()
        var t = MonotonicInstant.zero
        for i in 0..<30 {
            let stamp = FrameStamp(sequence: UInt64(i), time: t)
            try dock.submit([face(x: 0.8, stamp: stamp)], camera: camera, at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
            gimbal.advance(to: t)
        }
        #expect(gimbal.motionState(at: t).angularVelocities.y > 0.2)
    }

    @Test func staleObservationsNeverDriveTheMotors() throws {
        let (dock, gimbal, _) = accessory()
        var t = MonotonicInstant(seconds: 10)
        let old = FrameStamp(sequence: 1, time: .zero)
        for _ in 0..<30 {
            let outcome = try dock.submit([face(x: 0.9, stamp: old)], camera: camera, at: t)
            #expect(outcome.command == Vector3D() && outcome.framedRect == nil)
            t = t.advanced(bySeconds: 1.0 / 30)
            gimbal.advance(to: t)
        }
        #expect(dock.staleObservationCount == 30)
        #expect(gimbal.motionState(at: t).angularPositions == Vector3D())
    }

    @Test func publicTrackEnforcesTheRateContract() async throws {
        let (dock, _, clock) = accessory()
        let observation = DockAccessory.Observation(identifier: 1, type: .humanFace, rect: CGRect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))
        let info = DockAccessory.CameraInformation(captureDevice: nil, cameraPosition: .unspecified, orientation: .corrected,
                                                   cameraIntrinsics: nil, referenceDimensions: CGSize(width: 1280, height: 720))
        var errors: [DockKitError] = []
        for _ in 0..<40 {
            do { try await dock.track([observation], cameraInformation: info) } catch let e as DockKitError { errors.append(e) }
            clock.advance(bySeconds: 1.0 / 60)
        }
        #expect(errors.count > 25 && errors.allSatisfy { $0 == .frameRateTooHigh })
    }

    @Test func directMotorControlIsRefusedWhileSystemTrackingIsOn() async throws {
        let (dock, gimbal, clock) = accessory()
        await #expect(throws: DockKitError.notSupported) { try await dock.setAngularVelocity(Vector3D(x: 0, y: 0.5, z: 0)) }
        dock.setSystemTrackingEnabled(false)
        try await dock.setAngularVelocity(Vector3D(x: 0, y: 0.5, z: 0))
        clock.advance(bySeconds: 0.5)
        gimbal.advance(to: clock.now)
        #expect(gimbal.motionState(at: clock.now).angularVelocities.y > 0.4)
        await #expect(throws: DockKitError.invalidParameter) { try await dock.setAngularVelocity(Vector3D(x: .nan, y: 0, z: 0)) }
    }

    @Test func limitsForAMissingAxisAreRefused() throws {
        let (dock, _, _) = accessory()
        let roll = try AxisLimit(positionRange: -0.1..<0.1, maximumSpeed: 1)
        #expect(throws: DockKitError.notSupportedByDevice) { try dock.setLimits(MotionLimits(yaw: nil, pitch: nil, roll: roll)) }
        let yaw = try AxisLimit(positionRange: -0.5..<0.5, maximumSpeed: 0.3)
        try dock.setLimits(MotionLimits(yaw: yaw, pitch: dock.limits.pitch, roll: nil))
        #expect(dock.limits.yaw == yaw)
    }

    @Test func framingModeMovesTheFramingPoint() async throws {
        let (dock, _, _) = accessory()
        #expect(dock.framingMode == .automatic)
        try await dock.setFramingMode(.left)
        // A subject centred in the image is off the left-third point: the head turns right
        // (positive yaw) so the subject moves toward the left.
        var t = MonotonicInstant.zero
        var outcome = TrackOutcome(framedRect: nil, command: Vector3D())
        for i in 0..<10 {
            outcome = try dock.submit([face(x: 0.45, stamp: FrameStamp(sequence: UInt64(i), time: t))], camera: camera, at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        #expect(outcome.command.y > 0)
    }
}
