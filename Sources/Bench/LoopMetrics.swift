import DockCore
import Foundation

/// One closed-loop frame as the benchmark sees it: where the true target appeared in the view
/// and whether the pipeline had the target selected.
public struct LoopSample: Sendable, Hashable {
    public var time: Double
    /// True target centre in view pixels, nil when behind the camera or unknown.
    public var targetCenterX: Double?
    public var targetCenterY: Double?
    /// Whether the pipeline's chosen subject is the true target.
    public var targetSelected: Bool
    /// The lens's zoom for this frame (1 = the widest): its focal length is the view's times this.
    public var zoom: Double

    public init(
        time: Double, targetCenterX: Double?, targetCenterY: Double?, targetSelected: Bool, zoom: Double = 1
    ) {
        self.time = time
        self.zoom = zoom
        self.targetCenterX = targetCenterX
        self.targetCenterY = targetCenterY
        self.targetSelected = targetSelected
    }
}

/// Closed-loop quality figures over a run: share of frames with the target in view after the
/// pipeline first acquired it, and how far from the image centre it sat.
public struct LoopMetrics: Sendable {
    public let viewWidth: Double
    public let viewHeight: Double
    public let focalLength: Double
    /// The latest frames, at most `window` of them (a run of days keeps the latest minutes).
    public private(set) var samples: [LoopSample] = []
    public let window: Int
    private let trimAt: Int
    private var firstTime: Double?
    private var acquiredAt: Double?
    private var framesSinceAcquisition = 0
    private var inViewSinceAcquisition = 0

    /// - Parameter window: how many of the latest frames the error percentiles are taken over;
    ///   the share in view and the time to acquire always cover the whole run.
    public init(viewWidth: Double, viewHeight: Double, focalLength: Double, window: Int = .max) {
        precondition(window > 0)
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.focalLength = focalLength
        self.window = window
        // Dropped in batches, so that keeping the window costs one copy every quarter window.
        trimAt = window > Int.max - window / 4 - 1 ? Int.max : window + window / 4 + 1
        // A bounded window takes its room once, rather than growing by copies for its first minutes.
        if trimAt < Int.max { samples.reserveCapacity(trimAt) }
    }

    public mutating func record(_ sample: LoopSample) {
        if firstTime == nil { firstTime = sample.time }
        if acquiredAt == nil, sample.targetSelected { acquiredAt = sample.time }
        if acquiredAt != nil {
            framesSinceAcquisition += 1
            if isInView(sample) { inViewSinceAcquisition += 1 }
        }
        samples.append(sample)
        if samples.count >= trimAt { samples.removeFirst(samples.count - window) }
    }

    func isInView(_ s: LoopSample) -> Bool {
        guard let x = s.targetCenterX, let y = s.targetCenterY else { return false }
        return x >= 0 && x < viewWidth && y >= 0 && y < viewHeight
    }

    /// Angle (degrees) between the target's direction and the optical axis.
    public func centeringErrorDegrees(_ s: LoopSample) -> Double? {
        guard let x = s.targetCenterX, let y = s.targetCenterY else { return nil }
        let dx = (x - viewWidth / 2) / (focalLength * s.zoom)
        let dy = (y - viewHeight / 2) / (focalLength * s.zoom)
        return atan(hypot(dx, dy)) * 180 / .pi
    }

    /// Horizontal distance from the centre as a fraction of the frame width.
    public func centeringErrorFraction(_ s: LoopSample) -> Double? {
        s.targetCenterX.map { abs($0 - viewWidth / 2) / viewWidth }
    }

    /// From the first frame to the first with the target selected, seconds.
    public var timeToAcquire: Double? { acquiredAt.flatMap { at in firstTime.map { at - $0 } } }

    var afterAcquisition: ArraySlice<LoopSample> {
        guard let acquiredAt else { return [] }
        return samples[(samples.firstIndex { $0.time >= acquiredAt } ?? samples.endIndex)...]
    }

    /// Share of frames after acquisition with the target's centre inside the view.
    public var inViewShare: Double? {
        framesSinceAcquisition > 0 ? Double(inViewSinceAcquisition) / Double(framesSinceAcquisition) : nil
    }

    /// Centering error (degrees) after acquisition, over frames with the target in view.
    public func centeringErrors(from start: Double = -.infinity, to end: Double = .infinity) -> Percentiles {
        Percentiles(
            afterAcquisition.filter { $0.time >= start && $0.time <= end && isInView($0) }.compactMap(
                centeringErrorDegrees))
    }

    public var centeringFractions: Percentiles {
        Percentiles(afterAcquisition.filter(isInView).compactMap(centeringErrorFraction))
    }
}
