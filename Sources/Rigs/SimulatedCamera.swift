import DockCore
import Foundation
import Motion
import Pipeline
import Simulation

/// The camera of the simulated rig: takes the world's next frame (a generated scene or a
/// recording), renders the view a camera on the simulated gimbal sees at its pose, adds the
/// camera's own effects, and hands it on stamped with media time from the first frame, its
/// intrinsics and the pose attached. Without a gimbal the world frame is the view.
///
/// In real time it waits for each frame's time on the rig's clock, and skips (counts as late)
/// a frame it could only deliver more than a period after that time, as a camera's queue would.
final class SimulatedCamera: FrameSource {
    private let world: any FrameSource
    private let scene: GeneratedScene?
    private let virtualCamera: VirtualCamera?
    private let gimbal: SimulatedGimbal?
    /// The camera's zoom lens: the view is rendered, and its intrinsics given, at its factor.
    private let lens: SimulatedZoomLens?
    /// The head as the engine reads it (through the configured mount); nil for a fixed camera.
    private let reading: (any MotorBackend)?
    private let camera: CameraInformation
    /// The rig's clock in real time; nil in lock-step (frames come as fast as they are asked for).
    private let pacing: (any MonotonicClock)?
    private let cancellation: Protected<Bool>
    private var firstTime: MonotonicInstant?
    private var lateFrames = 0

    init(
        world: any FrameSource, scene: GeneratedScene?, virtualCamera: VirtualCamera?, gimbal: SimulatedGimbal?,
        lens: SimulatedZoomLens? = nil, reading: (any MotorBackend)?, camera: CameraInformation,
        pacing: (any MonotonicClock)?,
        cancellation: Protected<Bool>
    ) {
        self.world = world
        self.scene = scene
        self.virtualCamera = virtualCamera
        self.gimbal = gimbal
        self.lens = lens
        self.reading = reading
        self.camera = camera
        self.pacing = pacing
        self.cancellation = cancellation
    }

    var summary: String { world.summary }
    var size: PixelSize { camera.referenceDimensions }
    var nominalFrameRate: Double { world.nominalFrameRate }
    var droppedFrames: Int { world.droppedFrames }
    var counts: SourceCounts {
        var counts = world.counts
        counts.late += lateFrames
        return counts
    }

    func nextFrame() throws(FrameSourceError) -> Frame? {
        while !cancellation.withLock({ $0 }) {
            guard var next = try world.nextFrame() else { return nil }
            let first = firstTime ?? next.stamp.time
            firstTime = first
            next.stamp.time = MonotonicInstant(nanoseconds: next.stamp.time.nanoseconds - first.nanoseconds)
            if let pacing, !wait(for: next.stamp.time, on: pacing) {
                lateFrames += 1
                continue
            }
            return try view(of: next)
        }
        return nil
    }

    /// Sleeps until `time` on `clock`; false when that time is more than a frame period past.
    private func wait(for time: MonotonicInstant, on clock: any MonotonicClock) -> Bool {
        let period = 1 / max(world.nominalFrameRate, 1)
        while !cancellation.withLock({ $0 }) {
            let wait = time.seconds(since: clock.now)
            if wait < -period { return false }
            if wait <= 0 { return true }
            Thread.sleep(forTimeInterval: min(wait, 0.05))
        }
        return true
    }

    private func view(of world: Frame) throws(FrameSourceError) -> Frame {
        // Rendered at the pose the head has now: the frame's own time in lock-step; in real
        // time the gimbal may already have moved on, and the picture shows where it is.
        let time = pacing.map { max($0.now, world.stamp.time) } ?? world.stamp.time
        let pose = gimbal?.cameraPose(at: time) ?? Vector3D()
        let zoom = lens?.factor(at: time) ?? 1
        var view = world
        if let virtualCamera {
            do { view = try virtualCamera.zoomed(by: zoom).render(world, pose: pose) } catch {
                throw FrameSourceError("rendering failed: \(error)")
            }
            try scene?.applyCameraEffects(to: &view)
        }
        // The intrinsics follow the zoom, as a camera's reported zoom position gives them.
        view.camera = camera
        view.camera?.intrinsics = camera.intrinsics.zoomed(by: zoom)
        // What the engine knows is the head's reading, through the mount it was told of.
        view.headPose = reading?.motionState(at: time).angularPositions ?? pose
        view.truePose = pose
        return view
    }
}
