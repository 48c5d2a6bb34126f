import DockCore

/// Precision, recall and mean IoU of a detector against labelled boxes, per size bucket.
/// Matching per image: detections best-first, each to the unmatched label it overlaps most,
/// counted when IoU ≥ `minimumIoU` (the usual PASCAL rule).
public struct DetectionAccuracy: Sendable {
    public struct Bucket: Sendable, Hashable {
        public var truePositives = 0
        public var falsePositives = 0
        public var falseNegatives = 0
        public var iouSum = 0.0

        public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
        public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
        public var meanIoU: Double { truePositives == 0 ? .nan : iouSum / Double(truePositives) }
        private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : Double(a) / Double(b) }

        mutating func add(_ other: Bucket) {
            truePositives += other.truePositives
            falsePositives += other.falsePositives
            falseNegatives += other.falseNegatives
            iouSum += other.iouSum
        }
    }

    /// Upper bounds (exclusive) of the size buckets, in pixels of box height: "< 32", "32–64", …
    public static let bucketLimits: [Double] = [32, 64, 128, .infinity]
    public static func bucketName(_ index: Int) -> String {
        let lower = index == 0 ? 0 : bucketLimits[index - 1]
        let upper = bucketLimits[index]
        if lower == 0 { return "<\(Int(upper)) px" }
        return upper.isInfinite ? "≥\(Int(lower)) px" : "\(Int(lower))–\(Int(upper)) px"
    }

    public let minimumIoU: Double
    public let minimumScore: Double
    public private(set) var buckets = [Bucket](repeating: Bucket(), count: bucketLimits.count)
    public private(set) var images = 0

    public init(minimumIoU: Double = 0.5, minimumScore: Double = 0.5) {
        self.minimumIoU = minimumIoU
        self.minimumScore = minimumScore
    }

    public var total: Bucket { buckets.reduce(into: Bucket()) { $0.add($1) } }

    /// The share of `rect`'s area inside `region`.
    static func overlapShare(of rect: PixelRect, in region: PixelRect) -> Double {
        let w = min(rect.maxX, region.maxX) - max(rect.x, region.x)
        let h = min(rect.maxY, region.maxY) - max(rect.y, region.y)
        guard w > 0, h > 0, rect.width > 0, rect.height > 0 else { return 0 }
        return w * h / (rect.width * rect.height)
    }

    static func bucket(of rect: PixelRect) -> Int {
        bucketLimits.firstIndex { rect.height < $0 } ?? bucketLimits.count - 1
    }

    /// Adds one image: its labels and what the detector found (with scores). An unmatched
    /// detection lying mostly inside an `ignored` region (an unlabelled crowd, say) counts as
    /// neither right nor wrong.
    public mutating func add(
        labels: [PixelRect], detections: [(rect: PixelRect, score: Double)], ignored: [PixelRect] = []
    ) {
        images += 1
        var matched = [Bool](repeating: false, count: labels.count)
        for d in detections.filter({ $0.score >= minimumScore }).sorted(by: { $0.score > $1.score }) {
            var best: (index: Int, iou: Double)?
            for (i, label) in labels.enumerated() where !matched[i] {
                let iou = label.intersectionOverUnion(d.rect)
                if iou > (best?.iou ?? 0) { best = (i, iou) }
            }
            if let best, best.iou >= minimumIoU {
                matched[best.index] = true
                let b = Self.bucket(of: labels[best.index])
                buckets[b].truePositives += 1
                buckets[b].iouSum += best.iou
            } else if !ignored.contains(where: { Self.overlapShare(of: d.rect, in: $0) >= 0.5 }) {
                buckets[Self.bucket(of: d.rect)].falsePositives += 1
            }
        }
        for (i, label) in labels.enumerated() where !matched[i] { buckets[Self.bucket(of: label)].falseNegatives += 1 }
    }
}
