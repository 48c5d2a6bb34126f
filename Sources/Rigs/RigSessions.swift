import CameraOutputs
import Capture
import DockCore
import GroundTruth
import Pipeline
import Simulation

/// What a simulated rig knows that the engine does not: where the people really are (a
/// generated scene's exact truth), the virtual camera that sees them, and its widest lens.
package struct SimulatedWorld {
    package var truth: (any GroundTruthProvider)?
    package var virtualCamera: VirtualCamera?
    package var camera: CameraInformation
}

extension Pipeline {
    /// The simulated rig: the demo scene or a recording, the simulated gimbal or none. When the
    /// run keeps its frame records, where the people really are (the generated scene's own
    /// truth, else a recording's `truth`) is recorded beside it for `runMeasured`.
    public convenience init(
        simulating configuration: SessionConfiguration, initialPose: Vector3D = Vector3D(),
        truth labelled: LabelledTruth? = nil, videoOutSystem: any VideoDeviceSystem = LinuxVideoDeviceSystem()
    ) throws(SessionError) {
        var world: SimulatedWorld?
        try self.init(configuration: configuration, videoOutSystem: videoOutSystem) { () throws(SessionError) in
            let built = try Rig.simulated(configuration, initialPose: initialPose)
            world = built.world
            return built.rig
        }
        if configuration.keepFrameRecords, let world, let truth = world.truth ?? labelled {
            subscribe(TruthRecorder(truth: truth, virtualCamera: world.virtualCamera, camera: world.camera))
        }
    }

    /// The live rig: a V4L2 camera, a motor device or none, microphones when named.
    public convenience init(
        live configuration: SessionConfiguration, system: any VideoDeviceSystem = LinuxVideoDeviceSystem()
    ) throws(SessionError) {
        try self.init(configuration: configuration, videoOutSystem: system) { () throws(SessionError) in
            try Rig.live(configuration, system: system)
        }
    }
}

extension SessionConfiguration {
    /// Builds the session that fits the source.
    public func makeSession() throws(SessionError) -> Pipeline {
        if case .camera = source { return try Pipeline(live: self) }
        return try Pipeline(simulating: self)
    }
}
