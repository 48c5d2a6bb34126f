/// Chooses an optical zoom so the framed face fills a chosen share of the picture's height,
/// without breathing: a pure state machine fed once a frame.
///
/// - The face's size is taken at the widest zoom (its share divided by the frame's zoom), over
///   the last few frames, so the lens's own motion and detector noise cancel out.
/// - A new zoom is chosen only when the wanted one differs from the last by `hysteresis`.
/// - Zooming out is at once (a face grown too large, a subject moving fast, one near the
///   picture's edge, or one lost for `lostDelay`: then all the way out); zooming in waits until
///   the subject has been calm, near the middle, for `settleTime`, counted again from each
///   change, so the lens never swings in and out frame after frame.
public struct ZoomFollower: Sendable {
    public struct Settings: Sendable, Hashable {
        /// The face's height as a share of the picture's height.
        public var faceShare = 0.15
        /// A new zoom only when the wanted one differs from the current target by this ratio.
        public var hysteresis = 0.25
        /// Seconds of a calm subject before zooming in.
        public var settleTime = 1.0
        /// A subject moving faster than this (rad/s, across the room) is followed wider.
        public var fastSpeed = 0.3
        /// A face centre further from the middle than this share of the half-picture is near the edge.
        public var edge = 0.6
        /// Seconds without the subject before zooming all the way out.
        public var lostDelay = 1.5
        /// Frames whose face sizes are taken together.
        public var window = 9
        /// A zoom set by hand (a remote's zoom keys) holds this long (s) before the follower
        /// takes over again.
        public var manualHold = 10.0

        public init() {}
    }

    /// What the follower sees of one frame.
    public struct Sample: Sendable {
        public var time: Double
        /// The framed face's height over the picture's; nil when no face is framed in this frame.
        public var faceShare: Double?
        /// How far the face's centre is from the middle: 0 there, 1 at the picture's edge.
        public var offCentre: Double
        /// The subject's angular speed across the room, rad/s.
        public var speed: Double
        /// The zoom factor the frame was taken at.
        public var zoom: Double

        public init(time: Double, faceShare: Double?, offCentre: Double = 0, speed: Double = 0, zoom: Double) {
            self.time = time
            self.faceShare = faceShare
            self.offCentre = offCentre
            self.speed = speed
            self.zoom = zoom
        }
    }

    public let settings: Settings
    public let range: ClosedRange<Double>
    /// The factor last chosen.
    public private(set) var target: Double
    /// Zoom changes chosen so far.
    public private(set) var moves = 0
    private var widestShares: [Double] = []
    private var calmSince: Double?
    private var lostSince: Double?
    private var heldUntil: Double?

    public init(settings: Settings = Settings(), range: ClosedRange<Double>, start: Double = 1) {
        self.settings = settings
        self.range = range
        target = min(max(start, range.lowerBound), range.upperBound)
    }

    /// A press of the zoom keys at `time`: the lens half a doubling in (`direction` > 0) or out
    /// from the factor chosen last, held there for `manualHold` seconds. The new factor, or nil
    /// at the end of the range.
    public mutating func press(_ direction: Double, at time: Double) -> Double? {
        guard direction != 0 else { return nil }
        heldUntil = time + settings.manualHold
        return choose(clamp(target * (direction > 0 ? 2.0.squareRoot() : 0.5.squareRoot())))
    }

    /// Takes a frame; the new factor when the zoom should change, else nil.
    public mutating func observe(_ sample: Sample) -> Double? {
        if let until = heldUntil {
            guard sample.time >= until else { return nil }
            heldUntil = nil
            calmSince = nil
        }
        guard let share = sample.faceShare, share > 0, sample.zoom > 0 else {
            calmSince = nil
            widestShares.removeAll()
            let since = lostSince ?? sample.time
            lostSince = since
            return sample.time - since >= settings.lostDelay ? choose(range.lowerBound) : nil
        }
        lostSince = nil
        widestShares.append(share / sample.zoom)
        if widestShares.count > settings.window { widestShares.removeFirst() }
        // The mean of the middle half: steady under noise that alternates frame to frame, where a
        // median of an odd window would flip between the two values.
        let sorted = widestShares.sorted()
        let middle = sorted[(sorted.count / 4)..<(sorted.count - sorted.count / 4)]
        let widest = middle.reduce(0, +) / Double(middle.count)
        let wanted = clamp(settings.faceShare / widest)
        let restless = sample.speed > settings.fastSpeed || sample.offCentre > settings.edge
        if restless {
            calmSince = nil
            // Room to follow: at most half the wanted zoom while the subject moves or nears the edge.
            return target > clamp(wanted / 2) * (1 + settings.hysteresis) ? choose(clamp(wanted / 2)) : nil
        }
        let calm = calmSince ?? sample.time
        calmSince = calm
        if wanted * (1 + settings.hysteresis) < target {
            calmSince = sample.time
            return choose(wanted)
        }
        if wanted > target * (1 + settings.hysteresis) && sample.time - calm >= settings.settleTime {
            calmSince = sample.time
            return choose(wanted)
        }
        return nil
    }

    private func clamp(_ factor: Double) -> Double {
        min(max(factor, range.lowerBound), range.upperBound)
    }

    private mutating func choose(_ factor: Double) -> Double? {
        guard factor != target else { return nil }
        target = factor
        moves += 1
        return factor
    }
}
