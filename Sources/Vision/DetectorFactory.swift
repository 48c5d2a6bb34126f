import DockCore

/// Which face detector to build, and the fallback chain when it cannot be built.
public enum FaceDetectorChoice: String, Sendable, CaseIterable {
    case yunet
    case haar
}

public struct BuiltDetector {
    public let detector: any Detector
    /// Set when the requested detector could not be used and a fallback was taken; says why.
    public let fallbackReason: String?
}

public enum DetectorFactory {
    /// Builds the requested face detector; YuNet falls back to the Haar cascade with a reason.
    /// Throws only when no detector at all can be built.
    public static func makeFaceDetector(_ choice: FaceDetectorChoice, registry: ModelRegistry,
                                        inputWidth: Int = 320) throws(DetectorError) -> BuiltDetector {
        var reason: String?
        if choice == .yunet {
            do {
                let path = try registry.resolve("yunet")
                return BuiltDetector(detector: try YuNetFaceDetector(modelPath: path, inputWidth: inputWidth), fallbackReason: nil)
            } catch let error as ModelError {
                reason = error.description
            } catch let error as DetectorError {
                reason = error.description
            } catch {
                reason = "\(error)"
            }
        }
        let haar = try CascadeFaceDetector(inputWidth: max(inputWidth, 480))
        return BuiltDetector(detector: haar, fallbackReason: reason.map { "\($0); using the Haar cascade instead" })
    }
}
