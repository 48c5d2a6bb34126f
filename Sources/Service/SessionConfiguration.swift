import Capture
import DockCore
import Foundation
import Motion
import Simulation
import Vision

/// What the pipeline reads.
public enum SourceChoice: Sendable, Equatable {
    /// The generated demo scene (real photos, a walking subject, exact ground truth).
    case demo
    /// A recorded video file.
    case file(String)
}

public enum GimbalChoice: String, Sendable, CaseIterable {
    /// The simulated gimbal; the file is the wide world and a virtual camera renders its view.
    case sim
    /// No motors: the pipeline runs on the file's frames and only reports its commands.
    case none
}

/// Everything one run of the pipeline needs; built from dockd's options.
public struct SessionConfiguration: Sendable {
    public var source: SourceChoice = .demo
    /// Horizontal field of view of the recording (degrees); the demo scene knows its own.
    public var sourceFieldOfView: Double = 90
    public var viewSize = PixelSize(width: 1280, height: 720)
    public var viewFieldOfView: Double = 60
    public var trackRate: Double = 30
    public var detector: FaceDetectorChoice = .yunet
    public var detectorInputWidth = 320
    public var modelsDirectory: String?
    public var mediaDirectory: String?
    public var gimbal: GimbalChoice = .sim
    public var gimbalModel = GimbalModel()
    public var framing = FramingConfiguration()
    public var outputVideo: String?
    /// Pace frames at the source's rate in wall time; otherwise run as fast as the machine can.
    public var realTime = true
    public var maximumDuration: Double?
    public var maximumFrames: Int?
    public var scene = SceneConfiguration()
    public var openCVThreads: Int?

    public init() {}

    /// The demo scene's photos: the given directory, $OPENDOCK_MEDIA, or ./.cache/media.
    public var resolvedMediaDirectory: String {
        mediaDirectory ?? ProcessInfo.processInfo.environment["OPENDOCK_MEDIA"]
            ?? FileManager.default.currentDirectoryPath + "/.cache/media"
    }
}
