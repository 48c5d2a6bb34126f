import Vision

/// A run of the pipeline dockd can start: the closed-loop simulation or a live camera.
public protocol PipelineSession: AnyObject {
    var sourceSummary: String { get }
    var detectorName: String { get }
    /// Set when the requested detector was replaced by a fallback; says why.
    var detectorFallback: String? { get }
    func run(stop: StopFlag, status: ((SessionStatus) -> Void)?) throws(SessionError) -> SessionSummary
}

extension SessionConfiguration {
    /// The face detector, with the Haar fallback when the model is missing or broken.
    func makeFaceDetector() throws(SessionError) -> BuiltDetector {
        do {
            return try DetectorFactory.makeFaceDetector(detector, registry: .standard(userDirectory: modelsDirectory),
                                                        inputWidth: detectorInputWidth)
        } catch {
            throw SessionError("no face detector could be built: \(error)")
        }
    }

    /// Builds the session that fits the source.
    public func makeSession() throws(SessionError) -> any PipelineSession {
        if case .camera = source { return try LiveSession(configuration: self) }
        return try ClosedLoopSession(configuration: self)
    }
}
