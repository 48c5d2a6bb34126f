import DockCore
import DockEngine
import Motion
import Synchronization
import TestSupport
import Testing
import Tracking

@testable import Pipeline

/// A control tick reads the head once and decides everything on that reading: the law, the
/// motor limits and any motion in progress. Read three times, as it was, a head whose answer
/// arrives between the reads would have the steps decide on different poses.
@Suite(.tags(.unit)) struct ControlTickTests {
    /// The simulated gimbal, counting how often it is read.
    final class CountedReadings: MotorBackend {
        let gimbal: SimulatedGimbal
        let readings = Atomic(0)
        var name: String { gimbal.name }
        var capabilities: MotorCapabilities { gimbal.capabilities }
        init(_ gimbal: SimulatedGimbal) { self.gimbal = gimbal }
        func setVelocity(_ velocity: Vector3D, at time: MonotonicInstant) throws {
            try gimbal.setVelocity(velocity, at: time)
        }
        func motionState(at time: MonotonicInstant) -> MotionState {
            readings.add(1, ordering: .relaxed)
            return gimbal.motionState(at: time)
        }
    }

    @Test func eachTickReadsTheHeadOnceWhetherItTracksOrNot() throws {
        let clock = ManualClock()
        let backend = CountedReadings(SimulatedGimbal())
        let dock = LocalDock(name: "test", backend: backend, clock: clock)
        var step = ControlStep(
            feeder: try TrackFeeder(rate: 30), accessory: dock, monitor: SessionMonitor(clock: clock),
            figures: Protected(ControlFigures()), notices: Protected([]), mount: MountDirections())
        let camera = CameraInformation(size: PixelSize(width: 1280, height: 720), horizontalFieldOfViewDegrees: 60)
        let right = NormalizedRect(x: 0.7, y: 0.4, width: 0.1, height: 0.2)
        var commands = 0
        for tick in 1...30 {
            let now = MonotonicInstant.zero.advanced(bySeconds: Double(tick) / 30)
            clock.set(now)
            let stamp = FrameStamp(sequence: UInt64(tick), time: now)
            let face = Observation(identifier: 1, kind: .humanFace, rect: right, confidence: 0.9, stamp: stamp)
            let target = ControlTarget(
                framed: tick <= 20 ? [TrackedSubject(id: 1, observation: face, stamp: stamp)] : [], camera: camera,
                stamp: stamp)
            let before = backend.readings.load(ordering: .relaxed)
            let calls = dock.trackCallCount
            step.tick(at: now, target: target, stopping: false)
            #expect(backend.readings.load(ordering: .relaxed) - before == 1, "tick \(tick)")
            commands += dock.trackCallCount - calls
        }
        // The ticks did decide: the law was called and turned the head toward the face.
        #expect(commands >= 20)
        #expect(backend.gimbal.motionState(at: clock.now).angularPositions.y != 0)
    }
}
