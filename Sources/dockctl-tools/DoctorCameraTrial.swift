import Capture
import Foundation
import Pipeline

/// The doctor's camera check, which streams: the frame rate the camera really gives at the
/// configured size and rate, and frames it damaged, flagged or lost, over about three seconds.
extension DoctorCommand {
    func streamFindings(_ c: SessionConfiguration, path: String) -> [Finding] {
        let report: CaptureCommand.Report
        do {
            var capture = try CaptureCommand(arguments: [])
            capture.device = path
            capture.request.size = c.captureSize
            capture.request.frameRate = c.captureFrameRate
            capture.frames = max(10, Int(3 * c.captureFrameRate))
            report = try capture.run(system: surroundings.video)
        } catch {
            return [
                Finding(
                    status: .problem,
                    line:
                        "camera \(path) would not stream: \(error); if it is busy, stop the program that has it (dockd, a browser) and run doctor again"
                )
            ]
        }
        let asked = c.captureFrameRate
        let rate = String(format: "%.1f fps of the %.0f asked at %@", report.measuredFrameRate, asked, report.size)
        // A damaged or flagged frame is worth a warning; so are lost ones, but not a single one in
        // three seconds (a busy moment of the machine), which tracking never notices.
        let damaged = report.errorFrames + report.corruptFrames
        if damaged > 0 || Double(report.sequenceGaps) > max(1, 0.02 * Double(report.frames)) {
            return [
                Finding(
                    status: .warning,
                    line:
                        "camera \(path): \(rate), but \(damaged) of \(report.frames) frames damaged or flagged and \(report.sequenceGaps) lost by the driver: use a USB port of its own (not a hub), a shorter cable, or a smaller --size"
                )
            ]
        }
        if report.measuredFrameRate < 0.85 * asked {
            return [
                Finding(
                    status: .warning,
                    line:
                        "camera \(path): \(rate): in dim light cameras lengthen the exposure, so light the room (or dockctl control \(path) exposure_dynamic_framerate=0); else the USB port lacks bandwidth: use a smaller --size"
                )
            ]
        }
        return [
            Finding(
                status: .ok,
                line:
                    "camera \(path) streams: \(rate), no frame damaged"
                    + (report.sequenceGaps == 0 ? " or lost" : ", \(report.sequenceGaps) lost by the driver")
                    + " over \(report.frames) frames")
        ]
    }
}
