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

    public init(time: Double, targetCenterX: Double?, targetCenterY: Double?, targetSelected: Bool) {
        self.time = time
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
    public private(set) var samples: [LoopSample] = []

    public init(viewWidth: Double, viewHeight: Double, focalLength: Double) {
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.focalLength = focalLength
    }

    public mutating func record(_ sample: LoopSample) { samples.append(sample) }

    func isInView(_ s: LoopSample) -> Bool {
        guard let x = s.targetCenterX, let y = s.targetCenterY else { return false }
        return x >= 0 && x < viewWidth && y >= 0 && y < viewHeight
    }

    /// Angle (degrees) between the target's direction and the optical axis.
    public func centeringErrorDegrees(_ s: LoopSample) -> Double? {
        guard let x = s.targetCenterX, let y = s.targetCenterY else { return nil }
        let dx = (x - viewWidth / 2) / focalLength
        let dy = (y - viewHeight / 2) / focalLength
        return atan(hypot(dx, dy)) * 180 / .pi
    }

    /// Horizontal distance from the centre as a fraction of the frame width.
    public func centeringErrorFraction(_ s: LoopSample) -> Double? {
        s.targetCenterX.map { abs($0 - viewWidth / 2) / viewWidth }
    }

    /// Index of the first frame where the target was selected.
    public var acquisitionIndex: Int? { samples.firstIndex { $0.targetSelected } }
    public var timeToAcquire: Double? { acquisitionIndex.map { samples[$0].time - samples[0].time } }

    var afterAcquisition: ArraySlice<LoopSample> { acquisitionIndex.map { samples[$0...] } ?? [] }

    /// Share of frames after acquisition with the target's centre inside the view.
    public var inViewShare: Double? {
        let s = afterAcquisition
        guard !s.isEmpty else { return nil }
        return Double(s.filter(isInView).count) / Double(s.count)
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
