import DockCore
import Foundation

/// Digital framing: the part of a fixed (or slowly turning) camera's picture that is shown,
/// moved and zoomed like a PTZ head would be, so any webcam frames whoever it follows.
///
/// A pure value: each `update` takes the framed subjects' face boxes (unit rects, lower-left
/// origin) at a time and returns the crop, a unit rect of the frame's own aspect (width and
/// height equal in unit terms). A still subject never moves the crop: the crop only sets off
/// once the subject's place is outside a dead band, then eases (critically damped, speed-capped)
/// all the way to it and stops. The zoom follows the subject's size with hysteresis, so detection
/// noise never breathes the picture, and never enlarges beyond `maximumZoom`.
public struct CropFollower: Sendable {
    public struct Settings: Sendable, Hashable {
        /// The crop is never smaller than 1/maximumZoom of the frame (the output's upscaling
        /// limit when it has the camera's size).
        public var maximumZoom = 2.0
        /// A face's height as a share of the crop's height (head and shoulders).
        public var faceShare = 0.25
        /// Where the face's centre sits, as a share of the crop's height from the bottom.
        public var eyeLine = 0.62
        /// Room beside a group's outermost faces, in face heights.
        public var groupMargin = 1.5
        /// The crop sets off once the subject's place is this far from where the crop frames it,
        /// as a share of the crop's size, and stops once within `settleBand`.
        public var deadBand = 0.08
        public var settleBand = 0.004
        /// A zoom change starts once the wanted size differs by this ratio.
        public var zoomHysteresis = 0.2
        /// Natural frequency of the easing (1/s), and the caps on its speed: crop sizes per
        /// second sideways, and the zoom's doubling rate per second.
        public var stiffness = 4.0
        public var maximumSpeed = 0.6
        public var maximumZoomRate = 0.5
        /// With nobody framed, the crop holds this long, then widens to the whole region.
        public var holdWhenLost = 2.0

        public init() {}
    }

    /// One axis of the crop (centre x, centre y, or the log of its size), eased toward a target.
    private struct Axis: Sendable {
        var value: Double
        var velocity = 0.0
        var target: Double
        var moving = false

        init(_ value: Double) {
            self.value = value
            target = value
        }

        mutating func step(dt: Double, stiffness: Double, maximumSpeed: Double, settle: Double) {
            guard moving else { return }
            let acceleration = stiffness * stiffness * (target - value) - 2 * stiffness * velocity
            velocity = min(max(velocity + acceleration * dt, -maximumSpeed), maximumSpeed)
            value += velocity * dt
            if abs(target - value) < settle && abs(velocity) < maximumSpeed * 0.05 {
                value = target
                velocity = 0
                moving = false
            }
        }
    }

    public let settings: Settings
    private var centerX = Axis(0.5)
    private var centerY = Axis(0.5)
    private var logSize = Axis(0)
    private var lastTime: Double?
    private var lastSeen: Double?
    /// Zoom changes started so far.
    public private(set) var zoomChanges = 0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The crop now, a unit rect with lower-left origin, always inside the frame (while it zooms
    /// near an edge, the centre's easing alone could take it past).
    public var crop: NormalizedRect {
        let size = min(exp(logSize.value), 1)
        return NormalizedRect(
            x: min(max(centerX.value - size / 2, 0), 1 - size), y: min(max(centerY.value - size / 2, 0), 1 - size),
            width: size, height: size)
    }

    /// How much the crop enlarges the frame (1 = the whole frame).
    public var zoom: Double { exp(-logSize.value) }

    /// Follows `faces` (nobody when empty) at `time` seconds: the framing point `placementX`
    /// (0.5 centred, 1/3 left, 2/3 right) and the crop kept inside `region`.
    public mutating func update(
        faces: [NormalizedRect], time: Double, placementX: Double = 0.5,
        region: NormalizedRect = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
    ) -> NormalizedRect {
        let dt = lastTime.map { min(max(time - $0, 0), 0.25) } ?? 0
        lastTime = time
        let fits = min(region.width, region.height)
        let smallest = min(1 / settings.maximumZoom, fits)
        if let wanted = Self.wanted(faces, settings: settings, smallest: smallest, largest: fits) {
            lastSeen = time
            aim(size: wanted.size, x: wanted.x, faceY: wanted.y, placementX: placementX, region: region)
        } else if let seen = lastSeen, time - seen > settings.holdWhenLost {
            lastSeen = nil
            if Self.retarget(&logSize, log(fits), band: 0) { zoomChanges += 1 }
            Self.retarget(&centerX, region.midX, band: 0)
            Self.retarget(&centerY, region.midY, band: 0)
        }
        let speed = settings.maximumSpeed * exp(logSize.value)
        let settle = settings.settleBand * exp(logSize.value)
        centerX.step(dt: dt, stiffness: settings.stiffness, maximumSpeed: speed, settle: settle)
        centerY.step(dt: dt, stiffness: settings.stiffness, maximumSpeed: speed, settle: settle)
        logSize.step(
            dt: dt, stiffness: settings.stiffness, maximumSpeed: settings.maximumZoomRate * log(2),
            settle: settings.settleBand)
        return crop
    }

    /// The crop size the faces call for, and where their framing point is.
    private static func wanted(_ faces: [NormalizedRect], settings: Settings, smallest: Double, largest: Double)
        -> (size: Double, x: Double, y: Double)?
    {
        guard let first = faces.first else { return nil }
        let union = faces.dropFirst().reduce(first) { a, b in
            let x = min(a.x, b.x)
            let y = min(a.y, b.y)
            return NormalizedRect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
        }
        let face = faces.map(\.height).max() ?? first.height
        let size = max(face / settings.faceShare, union.width + 2 * settings.groupMargin * face)
        return (min(max(size, smallest), largest), union.midX, union.midY)
    }

    private mutating func aim(size: Double, x: Double, faceY: Double, placementX: Double, region: NormalizedRect) {
        let current = exp(logSize.target)
        if abs(log(size / current)) > log(1 + settings.zoomHysteresis) {
            if Self.retarget(&logSize, log(size), band: 0) { zoomChanges += 1 }
        }
        let cropSize = exp(logSize.target)
        // The crop's centre that puts the face at the framing point, kept inside the region.
        let cx = x + (0.5 - placementX) * cropSize
        let cy = faceY + (0.5 - settings.eyeLine) * cropSize
        let half = cropSize / 2
        // While zooming, the framing is re-aimed exactly; at rest, small moves are ignored.
        let band = logSize.moving ? 0 : settings.deadBand * cropSize
        Self.retarget(&centerX, min(max(cx, region.x + half), region.maxX - half), band: band)
        Self.retarget(&centerY, min(max(cy, region.y + half), region.maxY - half), band: band)
    }

    /// A still axis sets off only when `target` is more than `band` away from where it rests;
    /// a moving one follows the newest target. True when it sets off.
    @discardableResult
    private static func retarget(_ axis: inout Axis, _ target: Double, band: Double) -> Bool {
        if axis.moving {
            axis.target = target
            return false
        }
        guard abs(target - axis.value) > max(band, 1e-9) else { return false }
        axis.target = target
        axis.moving = true
        return true
    }
}
