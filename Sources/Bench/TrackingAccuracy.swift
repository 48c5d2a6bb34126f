import DockCore
import Tracking

/// A box with an identity in one frame: a ground-truth object or a tracker's hypothesis.
public struct IdentifiedBox: Sendable, Hashable {
    public var id: Int
    public var rect: PixelRect

    public init(id: Int, rect: PixelRect) {
        self.id = id
        self.rect = rect
    }
}

/// The CLEAR MOT and identity measures of a tracker against ground truth (Bernardin &
/// Stiefelhagen 2008; Ristani et al. 2016), with the conventions of the MOTChallenge devkit as
/// the `motmetrics` package implements them, so figures compare with published ones:
/// per frame, pairs closer than the distance threshold (1 − IoU ≤ 0.5) may match; pairs matched
/// in earlier frames are kept while still close; the rest are assigned at minimum total distance;
/// an object matched to a different hypothesis than before is an identity switch.
public struct TrackingAccuracy: Sendable {
    /// Largest distance (1 − IoU) that still pairs an object with a hypothesis.
    public let maximumDistance: Double

    enum EventKind { case match, identitySwitch, ascend, transfer, migrate, miss, falsePositive }
    struct Event {
        let kind: EventKind
        let object: Int?
        let distance: Double
    }

    private var events: [(frame: Int, event: Event)] = []
    /// Object → hypothesis it was last matched to.
    private var matchedHypothesis: [Int: Int] = [:]
    /// Hypothesis → object it was last assigned to by the solver.
    private var assignedObject: [Int: Int] = [:]
    private var lastMatchFrame: [Int: Int] = [:]
    private var hypothesisLastSeen: [Int: Int] = [:]
    private var objectFrames: [Int: Int] = [:]
    private var hypothesisFrames: [Int: Int] = [:]
    /// Frames in which each (object, hypothesis) pair was within the threshold.
    private var closeFrames: [Pair: Int] = [:]
    private var objectCount = 0
    private var hypothesisCount = 0

    struct Pair: Hashable { let object: Int, hypothesis: Int }

    public init(maximumDistance: Double = 0.5) {
        self.maximumDistance = maximumDistance
    }

    /// Adds one frame. Frames must come in order; a frame with objects and no hypotheses (or the
    /// reverse) counts too.
    public mutating func add(frame: Int, objects: [IdentifiedBox], hypotheses: [IdentifiedBox]) {
        var distances: [[Double?]] = objects.map { o in
            hypotheses.map { h in
                let d = 1 - o.rect.intersectionOverUnion(h.rect)
                return d <= maximumDistance ? d : nil
            }
        }
        objectCount += objects.count
        hypothesisCount += hypotheses.count
        for o in objects { objectFrames[o.id, default: 0] += 1 }
        for h in hypotheses { hypothesisFrames[h.id, default: 0] += 1 }
        for (i, row) in distances.enumerated() {
            for (j, d) in row.enumerated() where d != nil {
                closeFrames[Pair(object: objects[i].id, hypothesis: hypotheses[j].id), default: 0] += 1
            }
        }
        var objectDone = [Bool](repeating: false, count: objects.count)
        var hypothesisDone = [Bool](repeating: false, count: hypotheses.count)
        func record(_ kind: EventKind, _ object: Int?, _ distance: Double = 0) {
            events.append((frame, Event(kind: kind, object: object, distance: distance)))
        }
        if !objects.isEmpty && !hypotheses.isEmpty {
            // 1. Keep the pairs of earlier frames that are still close.
            for (i, object) in objects.enumerated() {
                guard let previous = matchedHypothesis[object.id],
                    let j = hypotheses.indices.first(where: { !hypothesisDone[$0] && hypotheses[$0].id == previous }),
                    let d = distances[i][j]
                else { continue }
                objectDone[i] = true
                hypothesisDone[j] = true
                record(.match, object.id, d)
                lastMatchFrame[object.id] = frame
                hypothesisLastSeen[previous] = frame
            }
            for i in distances.indices {
                for j in distances[i].indices where objectDone[i] || hypothesisDone[j] { distances[i][j] = nil }
            }
            // 2. Assign the rest at minimum total distance.
            for (i, j) in LinearAssignment.solve(distances) {
                let o = objects[i].id
                let h = hypotheses[j].id
                let d = distances[i][j]!
                let isSwitch = matchedHypothesis[o].map { $0 != h } ?? false
                if isSwitch && hypothesisLastSeen[h] == nil { record(.ascend, o, d) }
                if let other = assignedObject[h], other != o {
                    if lastMatchFrame[o] == nil { record(.migrate, o, d) }
                    record(.transfer, o, d)
                }
                hypothesisLastSeen[h] = frame
                lastMatchFrame[o] = frame
                record(isSwitch ? .identitySwitch : .match, o, d)
                objectDone[i] = true
                hypothesisDone[j] = true
                matchedHypothesis[o] = h
                assignedObject[h] = o
            }
        }
        for (i, object) in objects.enumerated() where !objectDone[i] { record(.miss, object.id) }
        for j in hypotheses.indices where !hypothesisDone[j] { record(.falsePositive, nil) }
    }

    public var summary: TrackingSummary {
        var s = TrackingSummary()
        s.objects = objectCount
        s.predictions = hypothesisCount
        s.uniqueObjects = objectFrames.count
        var distanceSum = 0.0
        // Per object: its events in order (for fragmentations) and its non-miss event count.
        var perObject: [Int: [Bool]] = [:]
        var lastFrameOfObject: [Int: Int] = [:]
        for (frame, e) in events {
            switch e.kind {
            case .match:
                s.matches += 1
                distanceSum += e.distance
            case .identitySwitch:
                s.switches += 1
                distanceSum += e.distance
            case .miss: s.misses += 1
            case .falsePositive: s.falsePositives += 1
            case .transfer: s.transfers += 1
            case .ascend: s.ascends += 1
            case .migrate: s.migrates += 1
            }
            guard let o = e.object else { continue }
            // One flag per frame and object: tracked unless missed.
            if lastFrameOfObject[o] != frame { perObject[o, default: []].append(e.kind != .miss) }
            lastFrameOfObject[o] = frame
            if e.kind != .miss { s.trackedEvents[o, default: 0] += 1 }
        }
        s.meanDistance = s.detections > 0 ? distanceSum / Double(s.detections) : .nan
        for (o, frames) in objectFrames {
            let ratio = Double(s.trackedEvents[o] ?? 0) / Double(frames)
            if ratio >= 0.8 {
                s.mostlyTracked += 1
            } else if ratio >= 0.2 {
                s.partiallyTracked += 1
            } else {
                s.mostlyLost += 1
            }
        }
        for flags in perObject.values {
            guard let first = flags.firstIndex(of: true), let last = flags.lastIndex(of: true) else { continue }
            for k in (first + 1)..<(last + 1) where flags[k - 1] && !flags[k] { s.fragmentations += 1 }
        }
        // Identity measures: one global object ↔ hypothesis pairing that minimises the frames
        // where an identity is missed or extra.
        let objectIDs = objectFrames.keys.sorted()
        let hypothesisIDs = hypothesisFrames.keys.sorted()
        let no = objectIDs.count
        let nh = hypothesisIDs.count
        if no + nh > 0 {
            var falsePositive = [[Double?]](repeating: [Double?](repeating: 0, count: no + nh), count: no + nh)
            var falseNegative = falsePositive
            for r in 0..<(no + nh) {
                for c in 0..<(no + nh) {
                    if r >= no && c < nh { falsePositive[r][c] = nil }
                    if r < no && c >= nh { falseNegative[r][c] = nil }
                }
            }
            for (r, o) in objectIDs.enumerated() {
                let count = Double(objectFrames[o]!)
                for c in 0..<nh { falseNegative[r][c] = count }
                falseNegative[r][nh + r] = count
            }
            for (c, h) in hypothesisIDs.enumerated() {
                let count = Double(hypothesisFrames[h]!)
                for r in 0..<no { falsePositive[r][c] = count }
                falsePositive[c + no][c] = count
            }
            let row = Dictionary(uniqueKeysWithValues: objectIDs.enumerated().map { ($1, $0) })
            let column = Dictionary(uniqueKeysWithValues: hypothesisIDs.enumerated().map { ($1, $0) })
            for (pair, frames) in closeFrames {
                let r = row[pair.object]!
                let c = column[pair.hypothesis]!
                falsePositive[r][c]! -= Double(frames)
                falseNegative[r][c]! -= Double(frames)
            }
            let costs = (0..<(no + nh)).map { r in
                (0..<(no + nh)).map { c -> Double? in
                    guard let fp = falsePositive[r][c], let fn = falseNegative[r][c] else { return nil }
                    return fp + fn
                }
            }
            var idFalsePositives = 0.0
            var idFalseNegatives = 0.0
            for (r, c) in LinearAssignment.solve(costs) {
                idFalsePositives += falsePositive[r][c] ?? 0
                idFalseNegatives += falseNegative[r][c] ?? 0
            }
            s.identityFalsePositives = Int(idFalsePositives)
            s.identityFalseNegatives = Int(idFalseNegatives)
        }
        return s
    }
}

/// What `TrackingAccuracy` measured. Ratios are NaN where their denominator is zero.
public struct TrackingSummary: Sendable {
    /// Ground-truth boxes (object-frames) and tracker boxes.
    public var objects = 0
    public var predictions = 0
    public var uniqueObjects = 0
    public var matches = 0
    public var switches = 0
    public var misses = 0
    public var falsePositives = 0
    public var transfers = 0
    public var ascends = 0
    public var migrates = 0
    public var fragmentations = 0
    public var mostlyTracked = 0
    public var partiallyTracked = 0
    public var mostlyLost = 0
    /// Mean 1 − IoU of the matched pairs (MOTP in the devkit's distance form).
    public var meanDistance = Double.nan
    public var identityFalsePositives = 0
    public var identityFalseNegatives = 0
    /// Non-miss events per object (the devkit counts a switch's sub-events too).
    var trackedEvents: [Int: Int] = [:]

    public var detections: Int { matches + switches }
    public var identityTruePositives: Int { objects - identityFalseNegatives }
    public var recall: Double { ratio(detections, objects) }
    public var precision: Double { ratio(detections, detections + falsePositives) }
    public var mota: Double { 1 - ratio(misses + switches + falsePositives, objects) }
    public var motp: Double { meanDistance }
    public var identityPrecision: Double {
        ratio(identityTruePositives, identityTruePositives + identityFalsePositives)
    }
    public var identityRecall: Double { ratio(identityTruePositives, identityTruePositives + identityFalseNegatives) }
    public var idf1: Double { ratio(2 * identityTruePositives, objects + predictions) }

    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : Double(a) / Double(b) }

}
