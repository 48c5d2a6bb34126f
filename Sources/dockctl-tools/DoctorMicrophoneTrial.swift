import Audio
import Foundation
import Pipeline
import Rigs

/// The doctor's microphone checks, which listen: the level and what `MicrophoneCheck` finds
/// (silence, clipping, one microphone on two channels) over a few seconds, and, with a camera,
/// whether the pair is wired as configured, from whose lips move against where the sound is from.
extension DoctorCommand {
    func microphoneFindings(_ c: SessionConfiguration, device: String) -> [Finding] {
        let report: ListenCommand.Report
        do {
            var listen = try ListenCommand(
                arguments: [
                    "--device", device, "--seconds", "3", "--mic-order", c.microphones.order.rawValue,
                    "--mic-spacing", "\(c.microphones.spacing)",
                ])
            listen.alsaConfiguration = surroundings.alsaConfiguration
            report = try listen.run()
        } catch {
            return [
                Finding(
                    status: .problem,
                    line:
                        "microphones \(device): \(error); run dockctl devices for the sound cards, and add yourself to the audio group if it says permission denied"
                )
            ]
        }
        if !report.problems.isEmpty { return report.problems.map { Finding(status: .problem, line: $0) } }
        let peak = String(format: "peak %.0f dBFS over %.0f s", report.peakLevelDecibels, report.seconds)
        if report.peakLevelDecibels < -45 {
            return [
                Finding(
                    status: .warning,
                    line:
                        "microphones \(device): \(peak): too quiet to hear a direction, or nobody spoke; raise its capture level (alsamixer) and talk while the doctor listens"
                )
            ]
        }
        let direction = report.directionDegrees.map { String(format: ", speech from %+.0f°", $0) } ?? ""
        return [
            Finding(status: .ok, line: "microphones \(device): \(report.summary), \(peak), no clipping\(direction)")
        ]
    }

    /// Runs the pipeline for `seconds` without moving the head (live), or the given simulated
    /// setup, and says what lips and sound said of the pair's wiring.
    func wiringFinding(_ configuration: SessionConfiguration, seconds: Double, simulated: Bool) -> Finding {
        var c = configuration
        c.maximumFrames = Int(seconds * c.captureFrameRate)
        let order = c.microphones.order
        let other: MicrophoneArray.ChannelOrder = order == .leftRight ? .rightLeft : .leftRight
        let summary: SessionSummary
        do {
            if simulated {
                summary = try Pipeline(simulating: c).run()
            } else {
                c.gimbal = .dryRun
                summary = try Pipeline(live: c).run()
            }
        } catch {
            return Finding(status: .warning, line: "microphones: their wiring could not be checked: \(error)")
        }
        guard let check = summary.channelOrder, check.verdict != .undecided else {
            return Finding(
                status: .warning,
                line: String(
                    format:
                        "microphones: the channel order was not settled in %.0f s (it needs one person at a time talking, off the camera's centre line, face in view); run doctor again while someone talks, or watch dockd's log, which says so if the pair is the other way round",
                    seconds))
        }
        if let line = check.finding(order: order.rawValue, other: other.rawValue) {
            return Finding(status: .problem, line: line)
        }
        return Finding(
            status: .ok,
            line:
                "microphones: the sound came from the side of the person whose lips moved (\(check.agreeing) of \(check.agreeing + check.opposing) windows): wired as --mic-order \(order.rawValue) says"
        )
    }
}
