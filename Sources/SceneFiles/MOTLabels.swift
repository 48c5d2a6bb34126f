import Bench
import DockCore
import Foundation
import Simulation

/// People's boxes from a MOTChallenge ground-truth file (`gt.txt`, as MOT tools and
/// motmetrics write it): `frame,id,x,y,width,height,confidence,…` a line, frames counted from 1,
/// pixels from the top left. A confidence of 0 marks a box MOT leaves out of scoring, and it is
/// left out here too; so is a box whose centre is outside the picture (someone leaving it).
public enum MOTLabels {
    public static func people(_ text: String, video: LabelledVideo) throws(LabelFileError) -> [LabelledTruth.Person] {
        var boxes: [Int: [Int: PixelRect]] = [:]
        var order: [Int] = []
        let rows = try MOTChallengeFile.rows(text)
        for row in rows {
            guard (1...video.frameCount).contains(row.frame) else {
                throw row.line.error(
                    0, "\(row.frame) is not a frame of the video (1…\(video.frameCount), counted from 1)")
            }
            guard (0...1_000_000).contains(row.id) else {
                throw row.line.error(1, "\(row.id) is not a whole number in 0…1000000")
            }
            guard row.box.width > 0 else { throw row.line.error(4, "a box needs a width above 0") }
            guard row.box.height > 0 else { throw row.line.error(5, "a box needs a height above 0") }
            if row.confidence == 0 { continue }
            guard video.contains(row.box) else { continue }
            if boxes[row.id] == nil { order.append(row.id) }
            guard boxes[row.id, default: [:]].updateValue(row.box, forKey: row.frame - 1) == nil else {
                throw row.line.error(1, "person \(row.id) has a second box in frame \(row.frame)")
            }
        }
        guard !order.isEmpty else {
            throw LabelFileError(line: rows.last?.line.number ?? 1, field: "the file", problem: "has no box to score")
        }
        return order.map { labelledPerson(id: $0, boxes: boxes[$0]!, gap: 0) }
    }
}
