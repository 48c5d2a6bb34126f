import CVision
import DockCore
import Imaging

/// YuNet 2022mar through OpenCV's FaceDetectorYN, run on a frame shrunk to `inputWidth`.
public final class YuNetFaceDetector: Detector {
    public let name = "yunet"
    public let inputWidth: Int
    private let handle: OpaquePointer
    private var faces = [cvision_face](repeating: cvision_face(), count: 64)

    public init(modelPath: String, inputWidth: Int = 320, scoreThreshold: Float = 0.6) throws(DetectorError) {
        guard let handle = cvision_yunet_create(modelPath, scoreThreshold, 0.3, 200) else {
            throw DetectorError(
                detector: "yunet", message: "cannot load model \(modelPath): \(String(cString: cvision_last_error()))")
        }
        self.handle = handle
        self.inputWidth = inputWidth
    }

    deinit { cvision_yunet_free(handle) }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        let capacity = Int32(faces.count)
        let count = frame.withView { view in
            faces.withUnsafeMutableBufferPointer {
                cvision_yunet_detect(handle, view, Int32(inputWidth), $0.baseAddress, capacity)
            }
        }
        guard count >= 0 else { throw DetectorError(detector: name, message: String(cString: cvision_last_error())) }
        return faces.prefix(Int(count)).map { face in
            let l = withUnsafeBytes(of: face.landmarks) { Array($0.bindMemory(to: Float.self)) }
            let landmarks = stride(from: 0, to: 10, by: 2).map { PixelPoint(x: Double(l[$0]), y: Double(l[$0 + 1])) }
            return Detection(
                kind: .humanFace, label: "face",
                rect: PixelRect(
                    x: Double(face.x), y: Double(face.y), width: Double(face.width), height: Double(face.height)),
                score: Double(face.score), landmarks: landmarks, stamp: frame.stamp, imageSize: frame.size)
        }
    }
}

/// A Haar or LBP cascade (Debian's opencv-data); Haar is the fallback when no model file is usable.
public final class CascadeFaceDetector: Detector {
    public let name: String
    public let inputWidth: Int
    private let handle: OpaquePointer
    private var faces = [cvision_face](repeating: cvision_face(), count: 64)

    public static let defaultCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
    public static let lbpCascadePath = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml"

    public init(
        cascadePath: String = CascadeFaceDetector.defaultCascadePath, inputWidth: Int = 480, name: String = "haar"
    ) throws(DetectorError) {
        guard let handle = cvision_cascade_create(cascadePath) else {
            throw DetectorError(
                detector: name, message: "cannot load cascade \(cascadePath) (install Debian's opencv-data)")
        }
        self.handle = handle
        self.inputWidth = inputWidth
        self.name = name
    }

    deinit { cvision_cascade_free(handle) }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        let capacity = Int32(faces.count)
        let count = frame.withView { view in
            faces.withUnsafeMutableBufferPointer {
                cvision_cascade_detect(handle, view, Int32(inputWidth), 20, $0.baseAddress, capacity)
            }
        }
        guard count >= 0 else { throw DetectorError(detector: name, message: String(cString: cvision_last_error())) }
        return faces.prefix(Int(count)).map { face in
            Detection(
                kind: .humanFace, label: "face",
                rect: PixelRect(
                    x: Double(face.x), y: Double(face.y), width: Double(face.width), height: Double(face.height)),
                score: Double(face.score), stamp: frame.stamp, imageSize: frame.size)
        }
    }
}
