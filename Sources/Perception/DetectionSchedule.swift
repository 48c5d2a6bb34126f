import DockCore

/// Which detectors run on a frame, so that all of them fit two cores at 30 fps: faces on every
/// frame (on a reduced image: the whole of it a few times a second and whenever no face is
/// tracked, in between only around the faces already tracked); bodies a few times a second, more often while no face is seen
/// (people turned away or far off); objects a few times a second; and a second look at full
/// resolution around subjects whose faces are too small for the reduced image, or, while no
/// face is confirmed, at tiles of the frame in turn. Pure: the caller says what time it is and
/// what it is tracking.
public struct DetectionSchedule: Sendable {
    public var bodyInterval = 0.2
    public var bodyIntervalWithoutFaces = 0.1
    /// Bodies on need: while the faces tell the whole story — every confirmed subject has a face
    /// big enough for the whole scan, none was lost lately — bodies run this seldom (to catch
    /// someone new who shows no face); nil runs them at `bodyInterval` whatever the faces say.
    public var bodyIntervalWhileFacesSuffice: Double?
    /// After the faces stopped being enough (a face turned away or small, a subject lost),
    /// bodies keep their full rate this long.
    public var bodyNeedHold = 2.0
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
    /// While no face is confirmed, a face too small for the whole scan is searched for: one tile
    /// of this grid (overlapping, so a face on a border is whole in one) at a time gets a second
    /// look, in turn; a tentative small face found that way gets the look instead, so it can be
    /// seen again and confirmed. A 40-pixel face in 720p is about 10 pixels in the whole scan,
    /// too few; in a tile it is about 32.
    public var searchColumns = 4
    public var searchRows = 2
    /// A tile every other frame at 30 fps (a sweep of the grid in about half a second): a tile
    /// costs about twice a whole scan, and an empty room would pay it on every frame.
    public var searchTileInterval = 0.06

    private var lastBodies: MonotonicInstant?
    private var lastBodyNeed: MonotonicInstant?
    private var lastConfirmedCount = 0
    private var lastObjects: MonotonicInstant?
    private var secondLookTurn = 0
    private var lastWholeFrame: MonotonicInstant?
    private var searchTurn = 0
    private var lastSearchTile: MonotonicInstant?

    public init() {}

    public struct Plan: Sendable, Equatable {
        public var bodies: Bool
        public var objects: Bool
        /// Unit rects (lower-left origin) to search again for a face at full resolution.
        public var secondLooks: [NormalizedRect]
        /// nil: look for faces in the whole frame; otherwise only around these tracked faces
        /// (unit rects, lower-left origin).
        public var faceRegions: [NormalizedRect]?
        /// While no face is confirmed: where to look at full resolution for a face too small for
        /// the whole scan, if that scan finds none (unit rect, lower-left origin).
        public var search: NormalizedRect?

        public init(
            bodies: Bool, objects: Bool, secondLooks: [NormalizedRect], search: NormalizedRect? = nil,
            faceRegions: [NormalizedRect]? = nil
        ) {
            self.bodies = bodies
            self.objects = objects
            self.secondLooks = secondLooks
            self.search = search
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
    /// `canSearchTiles`: whether a tile's second look sees finer pixels than the whole scan (the
    /// whole scan shrinks the frame).
    public mutating func plan(
        at time: MonotonicInstant, facesSeenLately: Bool, tracking: [Focus],
        hasBodyDetector: Bool, hasObjectDetector: Bool, canSearchRegions: Bool = false, canSearchTiles: Bool = false
    ) -> Plan {
        func due(_ last: MonotonicInstant?, _ interval: Double) -> Bool {
            last.map { time.seconds(since: $0) >= interval - 1e-6 } ?? true
        }
        let bodies = hasBodyDetector && due(lastBodies, bodyInterval(at: time, facesSeenLately, tracking))
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
            search: canSearchTiles ? searchLook(at: time, tracking: tracking) : nil,
            faceRegions: faceRegions(at: time, tracking: tracking, canSearchRegions: canSearchRegions))
    }

    /// How long since the last bodies this frame's bodies may wait: full rate while the faces are
    /// not enough, and for `bodyNeedHold` after; seldom while they are.
    private mutating func bodyInterval(at time: MonotonicInstant, _ facesSeenLately: Bool, _ tracking: [Focus])
        -> Double
    {
        guard facesSeenLately else { return bodyIntervalWithoutFaces }
        guard let seldom = bodyIntervalWhileFacesSuffice else { return bodyInterval }
        let confirmed = tracking.filter(\.isConfirmed)
        let lost = confirmed.count < lastConfirmedCount
        lastConfirmedCount = confirmed.count
        let told = confirmed.allSatisfy { focus in
            focus.kind == .humanFace ? focus.rect.width >= smallFaceWidth : focus.kind != .humanBody || focus.hasFace
        }
        if confirmed.isEmpty || lost || !told { lastBodyNeed = time }
        let needed = lastBodyNeed.map { time.seconds(since: $0) < bodyNeedHold } ?? false
        return needed ? bodyInterval : seldom
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

    /// While no face is confirmed: around a tentative small face, else the next search tile.
    private mutating func searchLook(at time: MonotonicInstant, tracking: [Focus]) -> NormalizedRect? {
        let faces = tracking.filter { $0.kind == .humanFace }
        guard !faces.contains(where: \.isConfirmed) else { return nil }
        if let small = faces.first(where: { $0.rect.width < smallFaceWidth }) {
            return Self.around(small.rect, scale: 3)
        }
        if let last = lastSearchTile, time.seconds(since: last) < searchTileInterval - 1e-6 { return nil }
        lastSearchTile = time
        let tile = Self.searchTile(searchTurn, columns: searchColumns, rows: searchRows)
        searchTurn = (searchTurn + 1) % max(1, searchColumns * searchRows)
        return tile
    }

    /// Tile `index` of a grid whose tiles overlap by a quarter of their size.
    static func searchTile(_ index: Int, columns: Int, rows: Int) -> NormalizedRect {
        func span(_ count: Int) -> (size: Double, step: Double) {
            guard count > 1 else { return (1, 0) }
            let size = 1 / (Double(count) * 0.75 + 0.25)
            return (size, size * 0.75)
        }
        let (width, xStep) = span(columns)
        let (height, yStep) = span(rows)
        let column = index % max(1, columns)
        let row = (index / max(1, columns)) % max(1, rows)
        return NormalizedRect(x: Double(column) * xStep, y: Double(row) * yStep, width: width, height: height)
    }

    static func around(_ r: NormalizedRect, scale: Double) -> NormalizedRect {
        let side = max(r.width, r.height) * scale
        return NormalizedRect(x: r.midX - side / 2, y: r.midY - side / 2, width: side, height: side)
    }
}
