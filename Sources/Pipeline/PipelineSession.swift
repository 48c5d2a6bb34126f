import DockCore
import DockEngine
import Perception

/// A run of the pipeline dockd can start: the closed-loop simulation or a live camera.
package protocol PipelineSession: AnyObject {
    var sourceSummary: String { get }
    var detectorName: String { get }
    /// Set when the requested detector was replaced by a fallback; says why.
    var detectorFallback: String? { get }
    /// What speakers are followed with (the microphones, a recording's sound), or why not.
    var audioNote: String? { get }
    /// Called each time the control loop goes round (the systemd watchdog's proof of life).
    var progress: (@Sendable () -> Void)? { get set }
    /// The accessory the session drives; the control API acts on it.
    var accessory: LocalDock { get }
    /// Live figures and the newest frame, for the control API.
    var monitor: SessionMonitor { get }
    /// Told when the motor device stops answering (false) and answers again (true).
    var deviceAvailability: (@Sendable (_ answering: Bool) -> Void)? { get set }
    func run(stop: StopFlag, status: ((SessionStatus) -> Void)?) throws(SessionError) -> SessionSummary
}

extension SessionConfiguration {
    /// The detectors the schedule runs: faces (Haar when the model is missing or broken),
    /// bodies (HOG when the network is missing) and, when classes are named, objects. The
    /// reasons for any fallback come back joined in one line.
    func makeDetectionStage() throws(SessionError) -> (stage: DetectionStage, fallback: String?) {
        let registry = ModelRegistry.standard(userDirectory: modelsDirectory)
        do {
            let faces = try DetectorFactory.makeFaceDetector(
                detector, registry: registry, inputWidth: detectorInputWidth)
            let bodies = try DetectorFactory.makeBodyDetector(
                bodyDetector, registry: registry, objectClasses: objectClasses, int8: profile.quantizesBodies)
            var objects: (any Detector)?
            if !objectClasses.isEmpty {
                objects =
                    bodyDetector == .yolox
                    ? bodies?.detector
                    : try DetectorFactory.makeObjectDetector(classes: objectClasses, registry: registry)
            }
            let reasons = [faces.fallbackReason, bodies?.fallbackReason].compactMap { $0 }
            return (
                DetectionStage(
                    faces: faces.detector, regionFaces: faces.forRegions, bodies: bodies?.detector, objects: objects,
                    schedule: profile.schedule),
                reasons.isEmpty ? nil : reasons.joined(separator: "; ")
            )
        } catch {
            throw SessionError("the detectors could not be built: \(error)")
        }
    }

    /// The lip reader that goes with speaker following (none when lips are off or nobody
    /// follows speakers), and the audio note with what it reads lips with appended.
    func makeLipReader(following: Bool, note: String?) -> (reader: LipReader?, note: String?) {
        guard following, lips != .off else { return (nil, note) }
        let reader = LipReader(choice: lips, registry: ModelRegistry.standard(userDirectory: modelsDirectory))
        return (
            reader,
            [note, "lips: \(reader.meter.name)", reader.fallbackReason].compactMap { $0 }.joined(separator: "; ")
        )
    }

    /// The framing mode and region of interest a session starts with.
    func configureFraming(of accessory: LocalDock) throws(SessionError) {
        do { try accessory.configureFraming(mode: framingMode, region: regionOfInterest) } catch {
            throw SessionError("--region must lie inside the frame, at least 0.05 wide and high", kind: .setup)
        }
    }

    /// What one-channel sound means for speaker following, appended to the audio note.
    package static let monoNote =
        " (mono: no direction; speech goes to whoever's lips move, else framing stays with vision)"
}
