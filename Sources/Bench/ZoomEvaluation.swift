import DockCore
import Foundation

/// How well an optical zoom kept the target's face at its chosen size, from a run's frame
/// samples (the faces as the zoomed lens saw them):
///   - size error: |share − goal| / goal, where share is the face's height over the picture's,
///     over the frames the target's face is whole in the picture;
///   - within band: the share of those frames within ±30 % of the goal;
///   - zooms per minute: zoom changes the engine commanded, over the run's time;
///   - detector over truth: the tracked face box's height over the labelled face's (the engine
///     sees only the former, so a detector drawing its boxes taller keeps the true face smaller).
public struct ZoomEvaluation: Sendable {
    public var sizeErrors: Percentiles
    public var detectedOverTruth: Double?
    public var withinBandShare: Double?
    public var zoomsPerMinute: Double?
    public var judgedFrames: Int

    /// The band a face's size counts as right within, as a share of the goal.
    public static let band = 0.3

    public init(
        samples: [FrameSample], primaryID: Int?, goal: Double, viewWidth: Double, viewHeight: Double,
        zoomMoves: Int, duration: Double
    ) {
        var errors: [Double] = []
        var ratios: [Double] = []
        for sample in samples {
            guard let id = SceneEvaluation.target(in: sample, primaryID: primaryID),
                let person = sample.people.first(where: { $0.id == id }), !person.hidden, let rect = person.rect,
                rect.x >= 0, rect.y >= 0, rect.maxX <= viewWidth, rect.maxY <= viewHeight
            else { continue }
            errors.append(abs(rect.height / viewHeight - goal) / goal)
            if let box = sample.faceTracks.max(by: {
                $0.rect.intersectionOverUnion(rect) < $1.rect.intersectionOverUnion(rect)
            }), box.rect.intersectionOverUnion(rect) > 0.3 {
                ratios.append(box.rect.height / rect.height)
            }
        }
        detectedOverTruth = Percentiles(ratios).median
        sizeErrors = Percentiles(errors)
        judgedFrames = errors.count
        withinBandShare =
            errors.isEmpty ? nil : Double(errors.filter { $0 <= Self.band }.count) / Double(errors.count)
        zoomsPerMinute = duration > 0 ? Double(zoomMoves) / (duration / 60) : nil
    }
}
