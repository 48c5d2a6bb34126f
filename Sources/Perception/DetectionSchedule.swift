import DockCore

/// Which detectors run on a frame, so that all of them fit two cores at 30 fps: faces on every
/// frame (on a reduced image: the whole of it a few times a second and whenever no face is
/// tracked, in between only around the faces already tracked); bodies a few times a second, more often while no face is seen
/// (people turned away or far off); objects a few times a second; and a second look at full
/// resolution around subjects whose faces are too small for the reduced image. Pure: the caller
/// says what time it is and what it is tracking.
public struct DetectionSchedule: Sendable {
    public var bodyInterval = 0.2
    public var bodyIntervalWithoutFaces = 0.1
    public var objectInterval = 0.34
    /// Faces narrower than this share of the frame get a second look at full resolution
    /// (YuNet on a 320-wide image loses faces under about 10 pixels).
    public var smallFaceWidth = 0.05
    /// At most this many second looks per frame (taken in turn when there are more).
    public var secondLooksPerFrame = 2
    /// Between scans of the whole frame, tracked faces are looked for only around themselves
    /// (`Plan.faceRegions`), which costs a third as much; a face nobody tracks yet is found by
    /// the next whole scan, at most this long after it appears. 0 scans every frame whole.
    public var wholeFrameInterval = 0.1
    /// More tracked faces than this, and the whole frame is scanned.
    public var faceRegionsLimit = 4

    private var lastBodies: MonotonicInstant?
    private var lastObjects: MonotonicInstant?
    private var secondLookTurn = 0
    private var lastWholeFrame: MonotonicInstant?

    public init() {}

    public struct Plan: Sendable, Equatable {
        public var bodies: Bool
        public var objects: Bool
        /// Unit rects (lower-left origin) to search again for a face at full resolution.
        public var secondLooks: [NormalizedRect]
        /// nil: look for faces in the whole frame; otherwise only around these tracked faces
        /// (unit rects, lower-left origin).
        public var faceRegions: [NormalizedRect]?

        public init(
            bodies: Bool, objects: Bool, secondLooks: [NormalizedRect], faceRegions: [NormalizedRect]? = nil
        ) {
            self.bodies = bodies
            self.objects = objects
            self.secondLooks = secondLooks
            self.faceRegions = faceRegions
        }
    }

    /// A subject the tracker follows, as far as the schedule cares.
    public struct Focus: Sendable {
        public var rect: NormalizedRect
        public var kind: ObservationKind
        /// For a body: whether a face is linked to it (then it needs no second look).
        public var hasFace: Bool
        /// A tentative track is looked for around itself too (it must be seen again to be
        /// confirmed), but gets no second look.
        public var isConfirmed: Bool

        public init(rect: NormalizedRect, kind: ObservationKind, hasFace: Bool, isConfirmed: Bool = true) {
            self.rect = rect
            self.kind = kind
            self.hasFace = hasFace
            self.isConfirmed = isConfirmed
        }
    }

    /// `canSearchRegions`: whether the caller can look for faces in regions only.
    public mutating func plan(
        at time: MonotonicInstant, facesSeenLately: Bool, tracking: [Focus],
        hasBodyDetector: Bool, hasObjectDetector: Bool, canSearchRegions: Bool = false
    ) -> Plan {
        func due(_ last: MonotonicInstant?, _ interval: Double) -> Bool {
            last.map { time.seconds(since: $0) >= interval - 1e-6 } ?? true
        }
        let bodies = hasBodyDetector && due(lastBodies, facesSeenLately ? bodyInterval : bodyIntervalWithoutFaces)
        if bodies { lastBodies = time }
        let objects = hasObjectDetector && due(lastObjects, objectInterval)
        if objects { lastObjects = time }
        var regions: [NormalizedRect] = []
        for focus in tracking where focus.isConfirmed {
            switch focus.kind {
            case .humanFace where focus.rect.width < smallFaceWidth:
                regions.append(Self.around(focus.rect, scale: 3))
            case .humanBody where !focus.hasFace:
                // Where the head of this body would be.
                let head = NormalizedRect(
                    x: focus.rect.midX - focus.rect.width * 0.35, y: focus.rect.maxY - focus.rect.height * 0.35,
                    width: focus.rect.width * 0.7, height: focus.rect.height * 0.4)
                regions.append(head)
            default: break
            }
        }
        var chosen: [NormalizedRect] = []
        if !regions.isEmpty {
            for k in 0..<min(secondLooksPerFrame, regions.count) {
                chosen.append(regions[(secondLookTurn + k) % regions.count])
            }
            secondLookTurn = (secondLookTurn + chosen.count) % regions.count
        }
        return Plan(
            bodies: bodies, objects: objects, secondLooks: chosen,
            faceRegions: faceRegions(at: time, tracking: tracking, canSearchRegions: canSearchRegions))
    }

    /// The tracked faces to look around, or nil for a whole scan (due, nothing tracked, or too
    /// many faces).
    private mutating func faceRegions(at time: MonotonicInstant, tracking: [Focus], canSearchRegions: Bool)
        -> [NormalizedRect]?
    {
        let faces = tracking.filter { $0.kind == .humanFace }.map(\.rect)
        let wholeDue = lastWholeFrame.map { time.seconds(since: $0) >= wholeFrameInterval - 1e-6 } ?? true
        guard canSearchRegions, wholeFrameInterval > 0, !wholeDue, !faces.isEmpty, faces.count <= faceRegionsLimit
        else {
            lastWholeFrame = time
            return nil
        }
        return faces
    }

    static func around(_ r: NormalizedRect, scale: Double) -> NormalizedRect {
        let side = max(r.width, r.height) * scale
        return NormalizedRect(x: r.midX - side / 2, y: r.midY - side / 2, width: side, height: side)
    }
}
