import CVision
import DockCore
import Imaging

/// A network run through the shim's DNN detectors; results come back as `cvision_object`s.
final class DNNNetwork {
    private let handle: OpaquePointer
    private var objects = [cvision_object](repeating: cvision_object(), count: 128)
    let name: String

    init(name: String, kind: cvision_dnn_kind, model: String, config: String? = nil, int8: Bool = false)
        throws(DetectorError)
    {
        let created =
            int8
            ? cvision_dnn_detector_create_int8(kind, model, config) : cvision_dnn_detector_create(kind, model, config)
        guard let handle = created else {
            throw DetectorError(
                detector: name, message: "cannot load \(model): \(String(cString: cvision_last_error()))")
        }
        self.handle = handle
        self.name = name
    }

    deinit { cvision_dnn_detector_free(handle) }

    func run(_ frame: Frame, scoreThreshold: Double) throws(DetectorError) -> [cvision_object] {
        let capacity = Int32(objects.count)
        let count = frame.withView { view in
            objects.withUnsafeMutableBufferPointer {
                cvision_dnn_detector_detect(handle, view, Float(scoreThreshold), $0.baseAddress, capacity)
            }
        }
        guard count >= 0 else { throw DetectorError(detector: name, message: String(cString: cvision_last_error())) }
        return Array(objects.prefix(Int(count)))
    }

    /// The network's boxes as detections of one kind and label (one-class detectors).
    func detections(in frame: Frame, scoreThreshold: Double, kind: ObservationKind, label: String) throws(DetectorError)
        -> [Detection]
    {
        try run(frame, scoreThreshold: scoreThreshold).map {
            Detection(
                kind: kind, label: label, rect: $0.pixelRect, score: Double($0.score), stamp: frame.stamp,
                imageSize: frame.size)
        }
    }
}

extension cvision_object {
    var pixelRect: PixelRect { PixelRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}

/// The Ultra-Light RFB-320 face detector: fast (≈ 11 ms here), no landmarks.
public final class RFBFaceDetector: Detector {
    public let name = "rfb320"
    public var scoreThreshold: Double
    private let network: DNNNetwork

    public init(modelPath: String, scoreThreshold: Double = 0.3) throws(DetectorError) {
        network = try DNNNetwork(name: "rfb320", kind: CVISION_DNN_RFB_FACES, model: modelPath)
        self.scoreThreshold = scoreThreshold
    }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        try network.detections(in: frame, scoreThreshold: scoreThreshold, kind: .humanFace, label: "face")
    }
}

/// The one-class SSDLite-MobileNetV2 person detector (TensorFlow graph through OpenCV's importer).
/// `int8`: quantized on the first frame with contrast, for a computer short of memory.
public final class SSDPersonDetector: Detector {
    public let name: String
    public var scoreThreshold: Double
    private let network: DNNNetwork

    public init(weightsPath: String, graphPath: String, scoreThreshold: Double = 0.3, int8: Bool = false)
        throws(DetectorError)
    {
        name = int8 ? "ssdlite-int8" : "ssdlite"
        network = try DNNNetwork(
            name: name, kind: CVISION_DNN_SSD_PERSONS, model: weightsPath, config: graphPath, int8: int8)
        self.scoreThreshold = scoreThreshold
    }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        try network.detections(in: frame, scoreThreshold: scoreThreshold, kind: .humanBody, label: "person")
    }
}

/// YOLOX-nano: people as bodies, and the COCO classes named in `objectClasses` as objects.
public final class YOLOXDetector: Detector {
    public let name = "yolox-nano"
    public var scoreThreshold: Double
    /// COCO class names reported as `.object` (e.g. "cat", "dog"); people are always bodies.
    public var objectClasses: Set<String>
    private let network: DNNNetwork

    public init(modelPath: String, objectClasses: Set<String> = [], scoreThreshold: Double = 0.3) throws(DetectorError)
    {
        for name in objectClasses where !COCOClasses.names.contains(name) {
            throw DetectorError(
                detector: "yolox-nano",
                message: "'\(name)' is not a COCO class; use one of \(COCOClasses.names.joined(separator: ", "))")
        }
        network = try DNNNetwork(name: "yolox-nano", kind: CVISION_DNN_YOLOX_OBJECTS, model: modelPath)
        self.objectClasses = objectClasses
        self.scoreThreshold = scoreThreshold
    }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        try network.run(frame, scoreThreshold: scoreThreshold).compactMap { o in
            let label = COCOClasses.name(Int(o.class_id))
            if label == "person" {
                return Detection(
                    kind: .humanBody, label: label, rect: o.pixelRect, score: Double(o.score), stamp: frame.stamp,
                    imageSize: frame.size)
            }
            guard objectClasses.contains(label) else { return nil }
            return Detection(
                kind: .object, label: label, rect: o.pixelRect, score: Double(o.score), stamp: frame.stamp,
                imageSize: frame.size)
        }
    }
}

/// OpenCV's HOG people detector: no model file, the bodies' fallback. Finds standing people
/// taller than about 128 px in its input; slow on large inputs, so it runs on a shrunk frame.
public final class HOGPersonDetector: Detector {
    public let name = "hog"
    public let inputWidth: Int
    private let handle: OpaquePointer
    private var objects = [cvision_object](repeating: cvision_object(), count: 64)

    public init(inputWidth: Int = 480) throws(DetectorError) {
        guard let handle = cvision_hog_create() else {
            throw DetectorError(detector: "hog", message: String(cString: cvision_last_error()))
        }
        self.handle = handle
        self.inputWidth = inputWidth
    }

    deinit { cvision_hog_free(handle) }

    public func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
        let capacity = Int32(objects.count)
        let count = frame.withView { view in
            objects.withUnsafeMutableBufferPointer {
                cvision_hog_detect(handle, view, Int32(inputWidth), $0.baseAddress, capacity)
            }
        }
        guard count >= 0 else { throw DetectorError(detector: name, message: String(cString: cvision_last_error())) }
        return objects.prefix(Int(count)).map {
            Detection(
                kind: .humanBody, label: "person", rect: $0.pixelRect, score: Double($0.score), stamp: frame.stamp,
                imageSize: frame.size)
        }
    }
}
