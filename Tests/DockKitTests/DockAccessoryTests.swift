import DockCore
import DockKitInProcess
import Foundation
import Motion
import TestSupport
import Testing

@testable import DockEngine
@testable import DockKit

@Suite(.tags(.unit)) struct DockAccessoryTests {
    let camera = CameraInformation(size: PixelSize(width: 1280, height: 720), horizontalFieldOfViewDegrees: 60)

    func accessory(clock: ManualClock = ManualClock()) -> (DockAccessory, SimulatedGimbal, ManualClock) {
        let gimbal = SimulatedGimbal(model: GimbalModel(latency: 0))
        return (DockAccessory(local: LocalDock(name: "test", backend: gimbal, clock: clock)), gimbal, clock)
    }

    func face(x: Double, stamp: FrameStamp) -> Observation {
        Observation(
            identifier: 1, kind: .humanFace, rect: NormalizedRect(x: x, y: 0.45, width: 0.1, height: 0.1), stamp: stamp)
    }

    @Test func trackTurnsTowardAnOffCentreSubject() throws {
        let (dock, gimbal, _) = accessory()
        var t = MonotonicInstant.zero
        for i in 0..<30 {
            let stamp = FrameStamp(sequence: UInt64(i), time: t)
            try dock.engineDock.submit([face(x: 0.8, stamp: stamp)], camera: camera, at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
            gimbal.advance(to: t)
        }
        #expect(gimbal.motionState(at: t).angularVelocities.y > 0.2)
    }

    /// Framed on the left third, a subject on the right third is reported as far from its aim as
    /// the head would turn between the two rays (the rule the law steers by), not by a pinhole
    /// offset from the aim.
    @Test func theCentringErrorIsTheTurnFromTheAimToTheSubject() throws {
        let (dock, _, _) = accessory()
        dock.engineDock.applyFramingMode(.left)
        let outcome = try dock.engineDock.submit(
            [face(x: 0.62, stamp: FrameStamp(sequence: 0, time: .zero))], camera: camera, at: .zero)
        let framed = try #require(outcome.framedRect)
        let aim = try #require(dock.engineDock.framingTarget)
        let error = try #require(dock.engineDock.centeringError)
        let pixels = ImageCoordinates(size: camera.referenceDimensions)
        let k = camera.intrinsics
        let subjectYaw = atan((framed.midX * 1280 - k.cx) / k.fx)
        let aimYaw = atan((aim.x * 1280 - k.cx) / k.fx)
        #expect(abs(error.yaw - (subjectYaw - aimYaw)) < 1e-9 && error.yaw > 0.2, "\(error)")
        #expect(pixels.width == 1280 && abs(error.pitch) < 0.02)
    }

    @Test func staleObservationsNeverDriveTheMotors() throws {
        let (dock, gimbal, _) = accessory()
        var t = MonotonicInstant(seconds: 10)
        let old = FrameStamp(sequence: 1, time: .zero)
        for _ in 0..<30 {
            let outcome = try dock.engineDock.submit([face(x: 0.9, stamp: old)], camera: camera, at: t)
            #expect(outcome.command == Vector3D() && outcome.framedRect == nil)
            t = t.advanced(bySeconds: 1.0 / 30)
            gimbal.advance(to: t)
        }
        #expect(dock.engineDock.staleObservationCount == 30)
        #expect(gimbal.motionState(at: t).angularPositions == Vector3D())
    }

    @Test func trackWithTheImageTakesItsSizeAndItsStamp() async throws {
        let (dock, gimbal, clock) = accessory()
        dock.engineDock.setSystemTrackingEnabled(false)
        let observation = DockAccessory.Observation(
            identifier: 1, type: .humanFace, rect: CGRect(x: 0.8, y: 0.45, width: 0.1, height: 0.1))
        let info = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: .corrected,
            cameraIntrinsics: CameraIntrinsics(fx: 900, fy: 900, cx: 640, cy: 360).cameraMatrix,
            referenceDimensions: nil)
        // A frame captured 0.5 s ago: its observations are stale and never move the motors.
        clock.advance(bySeconds: 1)
        let old = Frame(
            stamp: FrameStamp(sequence: 1, time: clock.now.advanced(bySeconds: -0.5)), width: 1280, height: 720,
            format: .gray)
        try await dock.track([observation], cameraInformation: info, image: old)
        #expect(dock.engineDock.staleObservationCount == 1)
        #expect(gimbal.motionState(at: clock.now).angularVelocities.y == 0)
        // A fresh one turns the head towards the subject on the right.
        clock.advance(bySeconds: 0.1)
        let fresh = Frame(stamp: FrameStamp(sequence: 2, time: clock.now), width: 1280, height: 720, format: .gray)
        try await dock.track([observation], cameraInformation: info, image: fresh)
        #expect(dock.engineDock.motors.lastCommand.y > 0)
    }

    @Test func publicTrackEnforcesTheRateContract() async throws {
        let (dock, _, clock) = accessory()
        dock.engineDock.setSystemTrackingEnabled(false)
        let observation = DockAccessory.Observation(
            identifier: 1, type: .humanFace, rect: CGRect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))
        let info = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: .corrected,
            cameraIntrinsics: nil, referenceDimensions: CGSize(width: 1280, height: 720))
        var errors: [DockKitError] = []
        for _ in 0..<40 {
            do { try await dock.track([observation], cameraInformation: info) } catch let e as DockKitError {
                errors.append(e)
            }
            clock.advance(bySeconds: 1.0 / 60)
        }
        #expect(errors.count > 25 && errors.allSatisfy { $0 == .frameRateTooHigh })
    }

    @Test func directMotorControlIsRefusedWhileSystemTrackingIsOn() async throws {
        let (dock, gimbal, clock) = accessory()
        await #expect(throws: DockKitError.notSupported) {
            try await dock.setAngularVelocity(Vector3D(x: 0, y: 0.5, z: 0))
        }
        dock.engineDock.setSystemTrackingEnabled(false)
        try await dock.setAngularVelocity(Vector3D(x: 0, y: 0.5, z: 0))
        clock.advance(bySeconds: 0.5)
        gimbal.advance(to: clock.now)
        #expect(gimbal.motionState(at: clock.now).angularVelocities.y > 0.4)
        await #expect(throws: DockKitError.invalidParameter) {
            try await dock.setAngularVelocity(Vector3D(x: .nan, y: 0, z: 0))
        }
    }

    @Test func limitsForAMissingAxisAreRefused() throws {
        let (dock, _, _) = accessory()
        let yaw = try AxisLimit(positionRange: -0.5..<0.5, maximumSpeed: 0.3)
        // As Apple's: not while system tracking is on, and not with no axis at all.
        #expect(throws: DockKitError.notSupported) { try dock.setLimits(MotionLimits(yaw: yaw, pitch: nil, roll: nil)) }
        dock.engineDock.setSystemTrackingEnabled(false)
        #expect(throws: DockKitError.invalidParameter) {
            try dock.setLimits(MotionLimits(yaw: nil, pitch: nil, roll: nil))
        }
        // A top speed of 0 holds the axis; only a negative one is refused.
        #expect(try AxisLimit(positionRange: -0.1..<0.1, maximumSpeed: 0).maximumSpeed == 0)
        #expect(throws: DockKitError.invalidParameter) { try AxisLimit(positionRange: -0.1..<0.1, maximumSpeed: -1) }
        let roll = try AxisLimit(positionRange: -0.1..<0.1, maximumSpeed: 1)
        #expect(throws: DockKitError.notSupportedByDevice) {
            try dock.setLimits(MotionLimits(yaw: nil, pitch: nil, roll: roll))
        }
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
            outcome = try dock.engineDock.submit(
                [face(x: 0.45, stamp: FrameStamp(sequence: UInt64(i), time: t))], camera: camera, at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
        }
        #expect(outcome.command.y > 0)
    }

    /// A subject standing still in the room at 0.1 rad to the right, `width` of the frame wide,
    /// framed for 4 s; returns its rect at the end (unit, lower-left origin).
    func frameStillSubject(_ dock: DockAccessory, _ gimbal: SimulatedGimbal, width: Double) throws -> NormalizedRect {
        let intrinsics = camera.intrinsics
        var t = MonotonicInstant.zero
        var rect = NormalizedRect(x: 0, y: 0, width: 0, height: 0)
        for i in 0..<120 {
            let yaw = gimbal.motionState(at: t).angularPositions.y
            let centre = (intrinsics.cx + intrinsics.fx * tan(0.1 - yaw)) / 1280
            rect = NormalizedRect(x: centre - width / 2, y: 0.4, width: width, height: 0.2)
            try dock.engineDock.submit(
                [
                    Observation(
                        identifier: 1, kind: .humanFace, rect: rect, stamp: FrameStamp(sequence: UInt64(i), time: t))
                ],
                camera: camera, at: t)
            t = t.advanced(bySeconds: 1.0 / 30)
            gimbal.advance(to: t)
        }
        return rect
    }

    /// `.left` inside a region covering the right half: the subject settles on the region's left
    /// third (x = 0.5 + 0.5/3), within the law's 2° dead band (about 0.03 of the width at 60°).
    @Test func framingModeAppliesInsideTheRegionOfInterest() async throws {
        let (dock, gimbal, _) = accessory()
        #expect(dock.regionOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        try await dock.setFramingMode(.left)
        try await dock.setRegionOfInterest(CGRect(x: 0.5, y: 0, width: 0.5, height: 1))
        let rect = try frameStillSubject(dock, gimbal, width: 0.1)
        #expect(abs(rect.midX - (0.5 + 0.5 / 3)) < 0.035, "subject centre \(rect.midX)")
    }

    /// A subject too wide for the left third of the region is kept whole inside the region.
    @Test func aWideSubjectIsKeptInsideTheRegion() async throws {
        let (dock, gimbal, _) = accessory()
        try await dock.setFramingMode(.left)
        try await dock.setRegionOfInterest(CGRect(x: 0.5, y: 0.25, width: 0.5, height: 0.5))
        let rect = try frameStillSubject(dock, gimbal, width: 0.45)
        #expect(rect.x >= 0.5 - 0.035 && rect.x + rect.width <= 1 + 0.035, "subject \(rect.x)…\(rect.x + rect.width)")
        #expect(abs(rect.midX - 0.725) < 0.035)
    }

    @Test func regionOfInterestIsCheckedKeptForCustomTrackingAndResetAtStop() async throws {
        let (dock, _, _) = accessory()
        for bad in [
            CGRect(x: 0.6, y: 0, width: 0.5, height: 1), CGRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
            CGRect(x: 0, y: 0, width: 0.01, height: 1), CGRect(x: CGFloat.nan, y: 0, width: 0.5, height: 0.5),
        ] {
            await #expect(throws: DockKitError.invalidParameter) { try await dock.setRegionOfInterest(bad) }
        }
        let square = CGRect(x: 0.21875, y: 0, width: 0.5625, height: 1)  // a square crop of 16:9
        try await dock.setRegionOfInterest(square)
        #expect(dock.regionOfInterest == square)
        dock.engineDock.setSystemTrackingEnabled(true)  // already on: nothing stops
        #expect(dock.regionOfInterest == square)
        // Switched off, the region still applies (custom tracking uses it, as DockKit's does);
        // it resets when the session's motors stop for good.
        dock.engineDock.setSystemTrackingEnabled(false)
        #expect(dock.regionOfInterest == square)
        dock.engineDock.stopMotors(at: .zero)
        #expect(dock.regionOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func aimPointGeometry() throws {
        // Upper-left (0.1, 0.2, 0.4, 0.5) is lower-left (0.1, 0.3, 0.4, 0.5).
        let region = try #require(
            FramingGeometry.region(fromUpperLeft: CGRect(x: 0.1, y: 0.2, width: 0.4, height: 0.5)))
        #expect(abs(region.y - 0.3) < 1e-12 && region.x == 0.1 && region.width == 0.4 && region.height == 0.5)
        var geometry = FramingGeometry(mode: .right, region: region)
        let aim = geometry.aimPoint(for: nil)
        #expect(abs(aim.x - (0.1 + 0.4 * 2 / 3)) < 1e-12 && abs(aim.y - 0.55) < 1e-12)
        // 0.3 wide: the right third would put its edge at 0.52 > 0.5; moved in to 0.35.
        let wide = geometry.aimPoint(for: NormalizedRect(x: 0, y: 0, width: 0.3, height: 0.1))
        #expect(abs(wide.x - 0.35) < 1e-12)
        // Taller than the region: its middle.
        geometry.mode = .center
        #expect(abs(geometry.aimPoint(for: NormalizedRect(x: 0, y: 0, width: 0.1, height: 0.9)).y - 0.55) < 1e-12)
    }
}
