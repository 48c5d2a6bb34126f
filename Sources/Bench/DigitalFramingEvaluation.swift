import DockCore
import Foundation

/// How well digital framing framed a run on a fixed camera, from its frame samples: the crop is
/// the picture people see, so the figures are those of the crop, not of the camera's view.
///   - centring: the target's face from the crop's framing point (centre across, the eye line
///     up), as an angle through the camera's focal length;
///   - in view: frames whose crop holds the target's face centre;
///   - jitter: how far the crop moves per frame, in output pixels, while the target stands still
///     (it has moved less than half a pixel per frame for the last second; a change of target
///     is a jump, so a crop still travelling to a new speaker a second later counts as moving);
///   - zoom changes: zoom motions started per minute.
public struct DigitalFramingEvaluation: Sendable {
    public var centringErrors: Percentiles
    public var inViewShare: Double?
    public var stillJitterRMS: Double?
    public var stillFrames: Int
    public var zoomChangesPerMinute: Double?

    /// `outputWidth` is the crop's size as shown; `eyeLine` the framing point's height in the
    /// crop from its bottom; `focalLength` the view camera's, in view pixels.
    public init(
        samples: [FrameSample], primaryID: Int?, focalLength: Double, outputWidth: Double, eyeLine: Double
    ) {
        var errors: [Double] = []
        var inView = 0
        var judged = 0
        var jitter: [Double] = []
        var zoomStarts = 0
        var stillSince: Double?
        var previous: (target: PixelPoint?, crop: PixelRect?, zooming: Bool) = (nil, nil, false)
        for sample in samples {
            let target = SceneEvaluation.target(in: sample, primaryID: primaryID)
                .flatMap { id in sample.people.first { $0.id == id && !$0.hidden }?.rect }
                .map { PixelPoint(x: $0.midX, y: $0.midY) }
            let crop = sample.crop
            if let target, let crop {
                judged += 1
                let point = PixelPoint(x: crop.midX, y: crop.y + (1 - eyeLine) * crop.height)
                errors.append(atan(hypot(target.x - point.x, target.y - point.y) / focalLength) * 180 / .pi)
                if target.x >= crop.x && target.x <= crop.maxX && target.y >= crop.y && target.y <= crop.maxY {
                    inView += 1
                }
            }
            // Still: under half a pixel of motion per frame, for a second (a new target is a jump).
            if let target, let last = previous.target, hypot(target.x - last.x, target.y - last.y) < 0.5 {
                stillSince = stillSince ?? sample.time
            } else {
                stillSince = nil
            }
            var zooming = false
            if let crop, let last = previous.crop {
                zooming = abs(crop.width - last.width) > 1e-6
                if zooming && !previous.zooming { zoomStarts += 1 }
                if let since = stillSince, sample.time - since >= 1 {
                    let scale = outputWidth / crop.width
                    jitter.append(hypot(crop.midX - last.midX, crop.midY - last.midY) * scale)
                }
            }
            previous = (target, crop, zooming)
        }
        centringErrors = Percentiles(errors)
        inViewShare = judged > 0 ? Double(inView) / Double(judged) : nil
        stillJitterRMS = jitter.isEmpty ? nil : sqrt(jitter.map { $0 * $0 }.reduce(0, +) / Double(jitter.count))
        stillFrames = jitter.count
        let minutes = ((samples.last?.time ?? 0) - (samples.first?.time ?? 0)) / 60
        zoomChangesPerMinute = minutes > 0 ? Double(zoomStarts) / minutes : nil
    }
}
