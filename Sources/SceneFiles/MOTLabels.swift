import DockCore
import Foundation
import Simulation

/// People's boxes from a MOTChallenge ground-truth file (`gt.txt`, as MOT tools and
/// motmetrics write it): `frame,id,x,y,width,height,confidence,…` a line, frames counted from 1,
/// pixels from the top left. A confidence of 0 marks a box MOT leaves out of scoring, and it is
/// left out here too; so is a box whose centre is outside the picture (someone leaving it).
public enum MOTLabels {
    static let names = ["frame", "id", "x", "y", "width", "height", "confidence", "class", "visibility"]

    public static func people(_ text: String, video: LabelledVideo) throws(LabelFileError) -> [LabelledTruth.Person] {
        var boxes: [Int: [Int: PixelRect]] = [:]
        var order: [Int] = []
        let lines = LabelLine.lines(of: text, names: names) { $0 == "," || $0 == " " || $0 == "\t" }
        for line in lines {
            guard line.fields.count >= 6 else {
                throw line.error(
                    line.fields.count, "a line has frame,id,x,y,width,height and more (\(line.fields.count) fields)")
            }
            let frame = try line.whole(0, in: 1...Int(Int32.max))
            guard frame <= video.frameCount else {
                throw line.error(0, "\(frame) is not a frame of the video (1…\(video.frameCount), counted from 1)")
            }
            let id = try line.whole(1, in: 0...1_000_000)
            let box = PixelRect(
                x: try line.number(2), y: try line.number(3), width: try line.number(4), height: try line.number(5))
            guard box.width > 0 else { throw line.error(4, "a box needs a width above 0") }
            guard box.height > 0 else { throw line.error(5, "a box needs a height above 0") }
            if line.fields.count > 6, try line.number(6) == 0 { continue }
            guard video.contains(box) else { continue }
            if boxes[id] == nil { order.append(id) }
            guard boxes[id, default: [:]].updateValue(box, forKey: frame - 1) == nil else {
                throw line.error(1, "person \(id) has a second box in frame \(frame)")
            }
        }
        guard !order.isEmpty else {
            throw LabelFileError(line: lines.last?.number ?? 1, field: "the file", problem: "has no box to score")
        }
        return order.map { labelledPerson(id: $0, boxes: boxes[$0]!, gap: 0) }
    }
}
