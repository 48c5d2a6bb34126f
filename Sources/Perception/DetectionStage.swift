import DockCore
import Foundation
import Imaging

/// When the slow detectors' results for a frame come back.
public enum SlowDetectorDelivery: Sendable, Equatable {
    /// As soon as they are ready: the real-time rigs.
    case whenReady
    /// With the first frame captured at least `seconds` after theirs. A pass not done by then is
    /// waited for when `waits` (lock-step, where media time outruns the detectors: so a run
    /// repeats exactly whatever the machine's speed), else taken with the first frame after it
    /// is done (live, where a wait would hold up the frames behind it).
    case after(seconds: Double, waits: Bool)
}

/// Runs the detectors the schedule asks for on one frame: faces (and second looks at small
/// ones) on the caller's thread; bodies and objects on a thread of their own, their results
/// handed back with a later frame (`late`), stamped with the frame they came from. A detector
/// that fails inside OpenCV loses its part of that frame, counted and reported; the others'
/// results still come back.
public final class DetectionStage {
    public let faces: any Detector
    /// A second instance of the face detector for the mosaics of tracked faces' surroundings
    /// (its input size stays put; the whole-frame one's too). nil: every frame is scanned whole.
    public let regionFaces: (any Detector)?
    public let bodies: (any Detector)?
    public let objects: (any Detector)?
    public var schedule: DetectionSchedule
    /// Failures per detector name.
    public private(set) var failures: [String: Int] = [:]
    /// Frames whose faces were looked for only around the tracked ones.
    public private(set) var regionFrames = 0
    private var lastFaceTime: MonotonicInstant?
    public var slowDelivery = SlowDetectorDelivery.whenReady
    private let slow = SlowDetectorThread()

    public struct Result: Sendable {
        public var detections: [Detection]
        /// Seconds each detector took on this frame ("yunet", "ssdlite", "second-look", …).
        public var durations: [String: Double]
        public var errors: [DetectorError]
        public var plan: DetectionSchedule.Plan
        /// Bodies and objects of an earlier frame, finished since the last call.
        public var late: [LateDetections]
        /// Seconds this call waited for them (lock-step delivery only; never live).
        public var waitedForLate: Double
    }

    public init(
        faces: any Detector, regionFaces: (any Detector)? = nil, bodies: (any Detector)? = nil,
        objects: (any Detector)? = nil, schedule: DetectionSchedule = DetectionSchedule()
    ) {
        self.faces = faces
        self.regionFaces = regionFaces
        self.bodies = bodies
        self.objects = objects
        self.schedule = schedule
    }

    deinit { slow.stop() }

    /// Names of the detectors, faces first: "yunet+ssdlite+yolox-nano".
    public var name: String { ([faces.name] + [bodies?.name, objects?.name].compactMap { $0 }).joined(separator: "+") }

    /// `cancelled` is asked between detectors: a run being stopped skips the rest of the frame.
    public func detect(_ frame: Frame, tracking: [DetectionSchedule.Focus] = [], cancelled: () -> Bool = { false })
        -> Result
    {
        var result = Result(
            detections: [], durations: [:], errors: [],
            plan: DetectionSchedule.Plan(bodies: false, objects: false, secondLooks: []),
            late: [], waitedForLate: 0)
        collectLate(before: frame.stamp.time, into: &result)
        let facesSeenLately = lastFaceTime.map { frame.stamp.time.seconds(since: $0) < 0.5 } ?? false
        // A slow detector still busy with an earlier frame is not due: it runs on the first frame after.
        let slowFree = slow.pending == nil
        result.plan = schedule.plan(
            at: frame.stamp.time, facesSeenLately: facesSeenLately, tracking: tracking,
            hasBodyDetector: bodies != nil && slowFree,
            hasObjectDetector: objects != nil && objects !== bodies && slowFree, canSearchRegions: regionFaces != nil,
            canSearchTiles: 2 * frame.width >= 3 * wholeScanWidth(of: frame))
        func run(_ label: String, _ body: () throws(DetectorError) -> [Detection]) -> [Detection] {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { result.durations[label, default: 0] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
            do { return try body() } catch {
                failures[error.detector, default: 0] += 1
                result.errors.append(error)
                return []
            }
        }
        var found: [Detection]
        if let around = result.plan.faceRegions, let regionFaces,
            let squares = Self.squares(around: around, in: frame, wholeScanWidth: wholeScanWidth(of: frame))
        {
            regionFrames += 1
            found = run(faces.name + " regions") { () throws(DetectorError) in
                try Self.detect(regionFaces, in: frame, squares: squares)
            }
        } else {
            found = run(faces.name) { () throws(DetectorError) in try faces.detect(frame) }
        }
        for region in result.plan.secondLooks {
            let extra = run("second-look") { () throws(DetectorError) in try secondLook(frame, region: region) }
            found += extra.filter { candidate in !found.contains { $0.rect.intersectionOverUnion(candidate.rect) > 0.3 }
            }
        }
        if found.isEmpty, let region = result.plan.search {
            found = run("search") { () throws(DetectorError) in try secondLook(frame, region: region) }
                .filter { $0.score >= Self.searchMinimumScore }
        }
        if !found.isEmpty { lastFaceTime = frame.stamp.time }
        let job = SlowDetectorThread.Job(
            frame: frame, bodies: result.plan.bodies ? bodies : nil, objects: result.plan.objects ? objects : nil)
        if job.bodies != nil || job.objects != nil, !cancelled() { _ = slow.submit(job) }
        // Lock-step with no delay: this frame's own results, as if the detectors ran inline.
        collectLate(before: frame.stamp.time, into: &result)
        result.detections = found
        return result
    }

    /// Waits for the slow detectors' pass in progress, if any (its results are dropped with the
    /// run that asked for them): call when a run ends.
    public func settle() {
        slow.drain()
        _ = slow.take(wait: false)
    }

    /// The slow detectors' results due with a frame captured at `time`.
    private func collectLate(before time: MonotonicInstant, into result: inout Result) {
        let taken: LateDetections?
        switch slowDelivery {
        case .whenReady: taken = slow.take(wait: false)
        case .after(let seconds, let waits):
            guard let pending = slow.pending, time.seconds(since: pending.time) >= seconds - 1e-9 else { return }
            guard waits else {
                taken = slow.take(wait: false)
                break
            }
            let start = DispatchTime.now().uptimeNanoseconds
            taken = slow.take(wait: true)
            result.waitedForLate += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        guard let late = taken else { return }
        for error in late.errors { failures[error.detector, default: 0] += 1 }
        result.errors += late.errors
        result.late.append(late)
    }

    /// The face detector on the finest pixels around `region` (decoded from the frame's
    /// detail when it has one), mapped back to the frame.
    private func secondLook(_ frame: Frame, region: NormalizedRect) throws(DetectorError) -> [Detection] {
        let coordinates = ImageCoordinates(size: frame.size)
        guard let crop = frame.detailedCrop(coordinates.pixels(region), minimumWidth: Self.secondLookWidth),
            crop.frame.width >= 24, crop.frame.height >= 24
        else { return [] }
        return try faces.detect(crop.frame).map { d in
            var mapped = d
            mapped.rect = crop.toFrame(d.rect)
            mapped.landmarks = d.landmarks.map(crop.toFrame)
            mapped.imageSize = frame.size
            return mapped
        }
    }

    /// The width the face detector shrinks a whole frame to.
    private func wholeScanWidth(of frame: Frame) -> Int {
        (faces as? YuNetFaceDetector)?.inputWidth ?? frame.width
    }

    /// Where to look around tracked faces: squares of `side` pixels of the image the whole scan
    /// gives the detector (the frame shrunk to its input width), `scale` frame pixels to one
    /// of those.
    struct Squares: Equatable {
        var regions: [PixelRect]
        var side: Int
        var scale: Double
    }

    /// The squares around `faces`, cut on the network's grid so each holds the very pixels the
    /// whole scan would give the detector there, and a face is found with the box the whole
    /// scan would give it (a law that saw boxes change between the two kinds of frame would
    /// chase the difference): 96 pixels on the 16-pixel grid (YuNet's stride-8 and stride-16
    /// heads, which find faces this small, see the same) while every face is at most 32 pixels
    /// across, else 128 on the 32-pixel grid up to 56: centred to the nearest grid point, either
    /// keeps the face 20 pixels or more from each edge. nil when a face is larger: scan whole.
    static func squares(around faces: [NormalizedRect], in frame: Frame, wholeScanWidth: Int) -> Squares? {
        let coordinates = ImageCoordinates(size: frame.size)
        let scale = Double(frame.width) / Double(min(max(wholeScanWidth, 16), frame.width))
        let rects = faces.map { coordinates.pixels($0) }
        let largest = rects.map { max($0.width, $0.height) / scale }.max() ?? 0
        let (side, gridStep): (Int, Double)
        switch largest {
        case ...32: (side, gridStep) = (96, 16)
        case ...Double(largestRegionFace): (side, gridStep) = (regionTileSide, 32)
        default: return nil
        }
        let length = Double(side) * scale
        let grid = gridStep * scale
        let regions = rects.map { r in
            PixelRect(
                x: max(0, ((r.midX - length / 2) / grid).rounded() * grid),
                y: max(0, ((r.midY - length / 2) / grid).rounded() * grid), width: length, height: length)
        }
        return Squares(regions: regions, side: side, scale: scale)
    }

    /// Faces in `squares` (frame pixels) from one detector call on their mosaic, mapped back.
    static func detect(_ detector: any Detector, in frame: Frame, squares: Squares) throws(DetectorError)
        -> [Detection]
    {
        guard
            let mosaic = Mosaic(
                frame: frame, regions: squares.regions, tileSide: squares.side, scale: squares.scale)
        else { return [] }
        let mapped = try detector.detect(mosaic.image).compactMap { d -> Detection? in
            guard let tile = mosaic.tile(containing: PixelPoint(x: d.rect.midX, y: d.rect.midY)) else { return nil }
            var mapped = d
            mapped.rect = mosaic.toFrame(d.rect, in: tile)
            // A face cut by its square's edge (a neighbour's, usually) comes back with a
            // wrong box: leave it to the next whole scan, unless the edge is the frame's.
            guard !Self.isCut(mapped.rect, by: tile.region, in: frame.size, margin: 2 * tile.scale) else { return nil }
            mapped.landmarks = d.landmarks.map { mosaic.toFrame($0, in: tile) }
            mapped.imageSize = frame.size
            mapped.stamp = frame.stamp
            return mapped
        }
        // Two people close together share pixels: a face seen in both squares is kept once.
        var kept: [Detection] = []
        for d in mapped.sorted(by: { $0.score > $1.score })
        where !kept.contains(where: { $0.rect.intersectionOverUnion(d.rect) > 0.4 }) {
            kept.append(d)
        }
        return kept
    }

    /// Whether `rect` reaches within `margin` of an edge of `region` that lies inside the frame.
    static func isCut(_ rect: PixelRect, by region: PixelRect, in size: PixelSize, margin: Double) -> Bool {
        (rect.x < region.x + margin && region.x > 0.5)
            || (rect.y < region.y + margin && region.y > 0.5)
            || (rect.maxX > region.maxX - margin && region.maxX < Double(size.width) - 0.5)
            || (rect.maxY > region.maxY - margin && region.maxY < Double(size.height) - 0.5)
    }

    /// The larger square: the region detector's input is two of them wide at most.
    public static let regionTileSide = 128
    static let largestRegionFace = 56

    /// A second look's region needs no more pixels across than this: a face in it is then
    /// still a fifth of the detector's 320-wide input or more.
    static let secondLookWidth = 160
    /// A face found by the search must be surer than one found where a subject is: a search
    /// looks at every part of the frame in full detail, where texture passes for a face more
    /// often, and a head that follows such a face leaves home for nothing.
    static let searchMinimumScore = 0.85
}
