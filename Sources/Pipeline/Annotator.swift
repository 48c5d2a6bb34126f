import DockCore
import Foundation
import Imaging
import Perception
import Tracking

/// Draws what the pipeline saw and decided onto a copy of the view.
struct Annotator {
    func annotate(
        _ view: Frame, detections: [Detection], subjects: [TrackedSubject], selectedID: Int?,
        truth: [PixelRect], pose: Vector3D, command: Vector3D, text: String
    ) -> Frame {
        var out = (try? view.converted(to: .bgr)) ?? view
        let coordinates = ImageCoordinates(size: view.size)
        for detection in detections {
            out.drawRect(detection.rect, color: .cyan, thickness: 1)
        }
        for rect in truth { out.drawRect(rect, color: .yellow, thickness: 1) }
        for subject in subjects {
            let rect = coordinates.pixels(subject.rect)
            let chosen = subject.id == selectedID
            out.drawRect(rect, color: chosen ? .green : .white, thickness: chosen ? 3 : 1)
            out.drawText(
                "#\(subject.id)", at: PixelPoint(x: rect.x, y: max(16, rect.y - 6)), scale: 0.6,
                color: chosen ? .green : .white, thickness: 2)
        }
        let c = PixelPoint(x: Double(view.width) / 2, y: Double(view.height) / 2)
        out.drawLine(
            from: PixelPoint(x: c.x - 14, y: c.y), to: PixelPoint(x: c.x + 14, y: c.y), color: .red, thickness: 2)
        out.drawLine(
            from: PixelPoint(x: c.x, y: c.y - 14), to: PixelPoint(x: c.x, y: c.y + 14), color: .red, thickness: 2)
        let degrees = 180 / Double.pi
        let status = String(
            format: "yaw %+6.2f  pitch %+6.2f deg   cmd %+5.2f %+5.2f deg/s", pose.y * degrees, pose.x * degrees,
            command.y * degrees, command.x * degrees)
        out.drawRect(PixelRect(x: 0, y: 0, width: Double(view.width), height: 56), color: .black, thickness: -1)
        out.drawText(text, at: PixelPoint(x: 10, y: 22), scale: 0.6, color: .white, thickness: 1)
        out.drawText(status, at: PixelPoint(x: 10, y: 46), scale: 0.6, color: .white, thickness: 1)
        return out
    }
}
