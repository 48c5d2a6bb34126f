import DockCore

/// Which detectors run on a frame, so that all of them fit two cores at 30 fps: faces on every
/// frame (on a reduced image); bodies a few times a second, more often while no face is seen
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

    private var lastBodies: MonotonicInstant?
    private var lastObjects: MonotonicInstant?
    private var secondLookTurn = 0

    public init() {}

    public struct Plan: Sendable, Equatable {
        public var bodies: Bool
        public var objects: Bool
        /// Unit rects (lower-left origin) to search again for a face at full resolution.
        public var secondLooks: [NormalizedRect]
    }

    /// A subject the tracker follows, as far as the schedule cares.
    public struct Focus: Sendable {
        public var rect: NormalizedRect
        public var kind: ObservationKind
        /// For a body: whether a face is linked to it (then it needs no second look).
        public var hasFace: Bool

        public init(rect: NormalizedRect, kind: ObservationKind, hasFace: Bool) {
            self.rect = rect
            self.kind = kind
            self.hasFace = hasFace
        }
    }

    public mutating func plan(at time: MonotonicInstant, facesSeenLately: Bool, tracking: [Focus],
                              hasBodyDetector: Bool, hasObjectDetector: Bool) -> Plan {
        func due(_ last: MonotonicInstant?, _ interval: Double) -> Bool {
            last.map { time.seconds(since: $0) >= interval - 1e-6 } ?? true
        }
        let bodies = hasBodyDetector && due(lastBodies, facesSeenLately ? bodyInterval : bodyIntervalWithoutFaces)
        if bodies { lastBodies = time }
        let objects = hasObjectDetector && due(lastObjects, objectInterval)
        if objects { lastObjects = time }
        var regions: [NormalizedRect] = []
        for focus in tracking {
            switch focus.kind {
            case .humanFace where focus.rect.width < smallFaceWidth:
                regions.append(Self.around(focus.rect, scale: 3))
            case .humanBody where !focus.hasFace:
                // Where the head of this body would be.
                let head = NormalizedRect(x: focus.rect.midX - focus.rect.width * 0.35, y: focus.rect.maxY - focus.rect.height * 0.35,
                                          width: focus.rect.width * 0.7, height: focus.rect.height * 0.4)
                regions.append(head)
            default: break
            }
        }
        var chosen: [NormalizedRect] = []
        if !regions.isEmpty {
            for k in 0..<min(secondLooksPerFrame, regions.count) { chosen.append(regions[(secondLookTurn + k) % regions.count]) }
            secondLookTurn = (secondLookTurn + chosen.count) % regions.count
        }
        return Plan(bodies: bodies, objects: objects, secondLooks: chosen)
    }

    static func around(_ r: NormalizedRect, scale: Double) -> NormalizedRect {
        let side = max(r.width, r.height) * scale
        return NormalizedRect(x: r.midX - side / 2, y: r.midY - side / 2, width: side, height: side)
    }
}
