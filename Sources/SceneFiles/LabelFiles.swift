import Bench
import DockCore
import Foundation
import Simulation

/// The video a label file describes: what its frame numbers and times must fit.
public struct LabelledVideo: Sendable {
    public var frameCount: Int
    public var size: PixelSize
    public var frameRate: Double

    public init(frameCount: Int, size: PixelSize, frameRate: Double) {
        self.frameCount = frameCount
        self.size = size
        self.frameRate = frameRate
    }

    public var duration: Double { Double(frameCount) / frameRate }

    /// Whether a box (pixels, top-left origin) has its centre in the picture.
    func contains(_ box: PixelRect) -> Bool {
        box.midX >= 0 && box.midY >= 0 && box.midX < Double(size.width) && box.midY < Double(size.height)
    }
}

/// A person's boxes by frame, as a label file gives them, made into the truth's keyframes: a
/// run of frames with no box longer than `gap` frames is hidden.
func labelledPerson(id: Int, boxes: [Int: PixelRect], gap: Int) -> LabelledTruth.Person {
    let frames = boxes.keys.sorted()
    var hidden: [ClosedRange<Int>] = []
    for (a, b) in zip(frames, frames.dropFirst()) where b - a > gap + 1 { hidden.append((a + 1)...(b - 1)) }
    return LabelledTruth.Person(
        id: id, keyframes: frames.map { LabelledTruth.Keyframe(frame: $0, face: boxes[$0]!) }, hidden: hidden)
}
