import Bench
import DockCore
import Foundation
import Perception
import Pipeline

/// `dockctl accuracy`: precision, recall and mean IoU of every detector on the labelled set, per
/// face or body size, with the time each takes per 1280×720 frame and what the detection
/// schedule costs at 30 fps.
public struct AccuracyCommand {
    public var detectors: [String] = [
        "yunet", "yunet@640", "yunet+looks", "rfb", "haar", "lbp", "ssdlite", "ssdlite-int8", "yolox", "hog",
    ]
    public var json = false
    public var modelsDirectory: String?
    public var mediaDirectory: String?
    public var minimumScore = 0.5

    static let known = [
        "yunet", "yunet@640", "yunet+looks", "rfb", "haar", "lbp", "ssdlite", "ssdlite-int8", "yolox", "hog",
    ]
    /// Frames of still video each image is shown for to the path with its tracker (0.5 s at 30 fps).
    static let stillFrames = 15

    public static let help = """
        dockctl accuracy — detection accuracy on the project's labelled images.

        Usage: dockctl accuracy [--detectors LIST] [--min-score S] [--models DIR] [--media DIR] [--json]

        Faces: yunet (at the default 320-pixel input), yunet@640, rfb, haar, lbp, on generated 1280x720
        scenes with exact boxes, hand-labelled photos and hand-labelled frames of a clip; and
        yunet+looks, dockd's path frame after frame (whole scans, the search of tiles, looks around
        tracked faces, the tracker): each image shown as 0.5 s of still video, scored on the faces
        tracked at its end (ms/image is per frame). Bodies: ssdlite, ssdlite-int8 (quantized on the
        first image with contrast, as --profile small runs it), yolox, hog, on the photos and
        clip frames. A detection counts when its score is at least --min-score (default 0.5) and it
        overlaps a label with IoU ≥ 0.5. Also prints each detector's median time per generated
        frame and the schedule's cost at 30 fps.
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--detectors":
                guard let v = rest.popFirst() else { throw UsageError("--detectors needs a list, e.g. yunet,ssdlite") }
                let names = v.split(separator: ",").map(String.init)
                for n in names where !Self.known.contains(n) {
                    throw UsageError("--detectors: unknown detector '\(n)' (\(Self.known.joined(separator: ", ")))")
                }
                detectors = names
            case "--min-score":
                guard let v = rest.popFirst(), let s = Double(v), (0...1).contains(s) else {
                    throw UsageError("--min-score expects a number from 0 to 1")
                }
                minimumScore = s
            case "--models":
                guard let v = rest.popFirst() else { throw UsageError("--models needs a directory") }
                modelsDirectory = v
            case "--media":
                guard let v = rest.popFirst() else { throw UsageError("--media needs a directory") }
                mediaDirectory = v
            default: throw UsageError("unknown accuracy option '\(argument)' (see dockctl accuracy --help)")
            }
        }
    }

    public struct Row: Sendable {
        public var detector: String
        public var set: String
        public var accuracy: DetectionAccuracy
        /// Median milliseconds per image of this set.
        public var milliseconds: Double
    }

    /// Evaluates; returns one row per detector and set.
    public func evaluate(progress: (String) -> Void = { _ in }) throws(SessionError) -> [Row] {
        var configuration = SessionConfiguration()
        configuration.mediaDirectory = mediaDirectory
        let media = configuration.resolvedMediaDirectory
        let images =
            try LabelledSet.generated(mediaDirectory: media) + LabelledSet.photos(mediaDirectory: media)
            + LabelledSet.clips(mediaDirectory: media)
        let registry = ModelRegistry.standard(userDirectory: modelsDirectory)
        var rows: [Row] = []
        if detectors.contains("yunet+looks") {
            rows += try Self.evaluatePath(images: images, registry: registry, minimumScore: minimumScore)
        }
        for name in detectors where name != "yunet+looks" {
            let detector: any Detector
            let isFace = ["yunet", "yunet@640", "rfb", "haar", "lbp"].contains(name)
            do {
                switch name {
                case "yunet": detector = try YuNetFaceDetector(modelPath: try registry.resolve("yunet"))
                case "yunet@640":
                    detector = try YuNetFaceDetector(modelPath: try registry.resolve("yunet"), inputWidth: 640)
                case "rfb": detector = try RFBFaceDetector(modelPath: try registry.resolve("rfb320"))
                case "haar": detector = try CascadeFaceDetector()
                case "lbp":
                    detector = try CascadeFaceDetector(cascadePath: CascadeFaceDetector.lbpCascadePath, name: "lbp")
                case "ssdlite", "ssdlite-int8":
                    detector = try SSDPersonDetector(
                        weightsPath: try registry.resolve("ssdlite-person"),
                        graphPath: try registry.resolve("ssdlite-person-graph"), int8: name == "ssdlite-int8")
                case "yolox": detector = try YOLOXDetector(modelPath: try registry.resolve("yolox-nano"))
                default: detector = try HOGPersonDetector()
                }
            } catch {
                progress("\(name): skipped, \(error)")
                continue
            }
            progress("evaluating \(name)")
            for set in ["generated", "photos", "clips"] {
                var accuracy = DetectionAccuracy(minimumScore: minimumScore)
                var times: [Double] = []
                for image in images where image.set == set {
                    guard let labels = isFace ? image.faces : image.bodies else { continue }
                    let start = DispatchTime.now().uptimeNanoseconds
                    let found: [Detection]
                    do { found = try detector.detect(image.frame) } catch {
                        throw SessionError("\(name) failed on \(image.name): \(error)")
                    }
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    let wanted: ObservationKind = isFace ? .humanFace : .humanBody
                    accuracy.add(
                        labels: labels, detections: found.filter { $0.kind == wanted }.map { ($0.rect, $0.score) },
                        ignored: image.ignored)
                }
                if accuracy.images > 0 {
                    rows.append(
                        Row(
                            detector: name, set: set, accuracy: accuracy,
                            milliseconds: Percentiles(times).median ?? .nan))
                }
            }
        }
        return rows
    }

    /// dockd's face path with its tracker, each image as still video; the faces tracked at the end.
    static func evaluatePath(images: [LabelledImage], registry: ModelRegistry, minimumScore: Double)
        throws(SessionError) -> [Row]
    {
        let faces: YuNetFaceDetector
        let regionFaces: YuNetFaceDetector
        do {
            let model = try registry.resolve("yunet")
            faces = try YuNetFaceDetector(modelPath: model)
            regionFaces = try YuNetFaceDetector(modelPath: model)
        } catch {
            throw SessionError("yunet+looks: \(error)")
        }
        var rows: [Row] = []
        for set in ["generated", "photos", "clips"] {
            var accuracy = DetectionAccuracy(minimumScore: minimumScore)
            var times: [Double] = []
            for image in images where image.set == set {
                let labels = image.faces
                // The detectors are loaded once; the path (its tracker and schedule) is new per image.
                let path = FaceDetectionPath(faces: faces, regionFaces: regionFaces)
                var tracked: [NormalizedRect] = []
                for index in 0..<stillFrames {
                    var frame = image.frame
                    frame.stamp = FrameStamp(
                        sequence: UInt64(index), time: MonotonicInstant(seconds: Double(index) / 30))
                    let start = DispatchTime.now().uptimeNanoseconds
                    tracked = path.faces(in: frame).tracked
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                let coordinates = ImageCoordinates(size: image.frame.size)
                accuracy.add(
                    labels: labels, detections: tracked.map { (coordinates.pixels($0), 1.0) }, ignored: image.ignored)
            }
            if accuracy.images > 0 {
                rows.append(
                    Row(
                        detector: "yunet+looks", set: set, accuracy: accuracy,
                        milliseconds: Percentiles(times).median ?? .nan))
            }
        }
        return rows
    }

    /// The schedule's cost at 30 fps from measured medians: faces on every frame, bodies at 5 Hz.
    public static func scheduleCost(rows: [Row], face: String = "yunet", body: String = "ssdlite") -> String? {
        guard let f = rows.first(where: { $0.detector == face && $0.set == "generated" })?.milliseconds,
            let b = rows.first(where: { $0.detector == body && $0.set == "photos" })?.milliseconds
        else { return nil }
        let perSecond = f * 30 + b * 5
        return String(
            format:
                "schedule at 30 fps: %@ %.1f ms × 30 + %@ %.1f ms × 5 = %.0f ms per second = %.0f %% of one core, %.0f %% of two",
            face as NSString, f, body as NSString, b, perSecond, perSecond / 10, perSecond / 20)
    }

    public static func report(_ rows: [Row]) -> String {
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return right ? space + text : text + space
        }
        let header = [
            pad("detector", 11), pad("set", 10), pad("size", 10), pad("labels", 6, right: true),
            pad("TP", 5, right: true),
            pad("FP", 5, right: true), pad("FN", 5, right: true), pad("precision", 10, right: true),
            pad("recall", 7, right: true),
            pad("mean IoU", 9, right: true), pad("ms/image", 9, right: true),
        ]
        var lines = [header.joined(separator: " ")]
        for row in rows {
            let buckets =
                row.accuracy.buckets.enumerated().map { (DetectionAccuracy.bucketName($0.offset), $0.element) } + [
                    ("all", row.accuracy.total)
                ]
            for (name, b) in buckets where b.truePositives + b.falsePositives + b.falseNegatives > 0 || name == "all" {
                let cells = [
                    pad(row.detector, 11), pad(row.set, 10), pad(name, 10),
                    pad("\(b.truePositives + b.falseNegatives)", 6, right: true),
                    pad("\(b.truePositives)", 5, right: true), pad("\(b.falsePositives)", 5, right: true),
                    pad("\(b.falseNegatives)", 5, right: true), pad(format(b.precision), 10, right: true),
                    pad(format(b.recall), 7, right: true), pad(format(b.meanIoU), 9, right: true),
                    pad(name == "all" ? String(format: "%.1f", row.milliseconds) : "", 9, right: true),
                ]
                lines.append(cells.joined(separator: " "))
            }
        }
        if let cost = scheduleCost(rows: rows) { lines.append(cost) }
        return lines.joined(separator: "\n")
    }

    public static func json(_ rows: [Row]) -> String {
        let objects: [[String: Any]] = rows.map { row in
            let t = row.accuracy.total
            return [
                "detector": row.detector, "set": row.set, "images": row.accuracy.images, "tp": t.truePositives,
                "fp": t.falsePositives, "fn": t.falseNegatives, "precision": t.precision.isNaN ? NSNull() : t.precision,
                "recall": t.recall.isNaN ? NSNull() : t.recall, "meanIoU": t.meanIoU.isNaN ? NSNull() : t.meanIoU,
                "millisecondsPerImage": row.milliseconds,
            ]
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func format(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.3f", v) }
}
