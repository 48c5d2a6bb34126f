import DockCore
import Imaging

/// Which face detector to build, and the fallback chain when it cannot be built.
public enum FaceDetectorChoice: String, Sendable, CaseIterable {
    /// YuNet 2022mar: accurate, five landmarks (head pose).
    case yunet
    /// Ultra-Light RFB-320: faster, no landmarks.
    case rfb
    /// Debian's Haar cascade (the fallback) and its LBP cascade (faster, less accurate).
    case haar
    case lbp
}

/// Which body (person) detector to build; `none` runs faces only.
public enum BodyDetectorChoice: String, Sendable, CaseIterable {
    case ssdlite
    case yolox
    case hog
    case none
}

public struct BuiltDetector {
    public let detector: any Detector
    /// Set when the requested detector could not be used and a fallback was taken; says why.
    public let fallbackReason: String?
    /// A second instance for the mosaics of tracked faces' surroundings (YuNet only: the
    /// others scan every frame whole).
    public var forRegions: (any Detector)?

    public init(detector: any Detector, fallbackReason: String?, forRegions: (any Detector)? = nil) {
        self.detector = detector
        self.fallbackReason = fallbackReason
        self.forRegions = forRegions
    }
}

public enum DetectorFactory {
    /// Builds the requested face detector; a model detector falls back to the Haar cascade with
    /// a reason. Throws only when no detector at all can be built.
    public static func makeFaceDetector(
        _ choice: FaceDetectorChoice, registry: ModelRegistry,
        inputWidth: Int = 320
    ) throws(DetectorError) -> BuiltDetector {
        var reason: String?
        do {
            switch choice {
            case .yunet:
                let path = try registry.resolve("yunet")
                return BuiltDetector(
                    detector: try YuNetFaceDetector(modelPath: path, inputWidth: inputWidth), fallbackReason: nil,
                    forRegions: try YuNetFaceDetector(
                        modelPath: path, inputWidth: 2 * DetectionStage.regionTileSide))
            case .rfb:
                return BuiltDetector(
                    detector: try RFBFaceDetector(modelPath: try registry.resolve("rfb320")), fallbackReason: nil)
            case .lbp:
                let lbp = try CascadeFaceDetector(
                    cascadePath: CascadeFaceDetector.lbpCascadePath, inputWidth: max(inputWidth, 480), name: "lbp")
                return BuiltDetector(detector: lbp, fallbackReason: nil)
            case .haar:
                break
            }
        } catch {
            reason = Self.describe(error)
        }
        let haar = try CascadeFaceDetector(inputWidth: max(inputWidth, 480))
        return BuiltDetector(detector: haar, fallbackReason: reason.map { "\($0); using the Haar cascade instead" })
    }

    /// Builds the requested body detector; SSDLite and YOLOX fall back to HOG with a reason.
    /// nil for `.none`. `objectClasses` are passed to YOLOX when it is the body detector.
    public static func makeBodyDetector(
        _ choice: BodyDetectorChoice, registry: ModelRegistry,
        objectClasses: Set<String> = [], int8: Bool = false
    ) throws(DetectorError) -> BuiltDetector? {
        var reason: String?
        do {
            switch choice {
            case .none: return nil
            case .ssdlite:
                let detector = try SSDPersonDetector(
                    weightsPath: try registry.resolve("ssdlite-person"),
                    graphPath: try registry.resolve("ssdlite-person-graph"), int8: int8)
                return BuiltDetector(detector: detector, fallbackReason: nil)
            case .yolox:
                let detector = try YOLOXDetector(
                    modelPath: try registry.resolve("yolox-nano"), objectClasses: objectClasses)
                return BuiltDetector(detector: detector, fallbackReason: nil)
            case .hog: break
            }
        } catch {
            reason = Self.describe(error)
        }
        return BuiltDetector(
            detector: try HOGPersonDetector(),
            fallbackReason: reason.map { "\($0); using the HOG people detector instead" })
    }

    /// YOLOX-nano reporting the named COCO classes as objects. A bad class name is an error; a
    /// missing model is an error too (objects have no fallback), with what to do.
    public static func makeObjectDetector(classes: Set<String>, registry: ModelRegistry) throws(DetectorError)
        -> any Detector
    {
        do {
            return try YOLOXDetector(modelPath: try registry.resolve("yolox-nano"), objectClasses: classes)
        } catch let error as DetectorError {
            throw error
        } catch {
            throw DetectorError(detector: "yolox-nano", message: "\(Self.describe(error)); object tracking needs it")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let e as ModelError: e.description
        case let e as DetectorError: e.description
        default: "\(error)"
        }
    }
}
