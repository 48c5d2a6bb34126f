import DockCore
import Foundation
import Imaging

/// Paths to the repository's fixtures: photos unpacked by Scripts/setup and the model files.
public enum Fixtures {
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is missing: run Scripts/setup first" }
    }

    /// A photo from .cache/media (see Scripts/media.sha256).
    public static func mediaPath(_ name: String) throws -> String {
        let path = repositoryRoot + "/.cache/media/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }

    public static func photo(_ name: String, format: PixelFormat = .bgr) throws -> Frame {
        try Frame.read(contentsOf: try mediaPath(name), format: format)
    }

    /// Model directories in the order the service searches them.
    public static var modelDirectories: [String] {
        [repositoryRoot + "/models", (repositoryRoot as NSString).deletingLastPathComponent + "/shared/models"]
    }

    /// A fresh scratch directory under the system's temporary directory.
    public static func temporaryDirectory(_ label: String = "opendock") -> String {
        let path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
