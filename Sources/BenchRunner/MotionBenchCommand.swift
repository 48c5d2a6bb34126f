import Bench
import Control
import DockCore
import Foundation
import GroundTruth
import Pipeline
import Rigs
import Simulation

/// `dockctl bench-motion`: the control laws side by side on generated scenes in closed loop:
/// a 15° step (settle time, overshoot), a subject walking 0.5 m/s at 3 m (RMS centering error),
/// and a still subject (motor starts per minute).
public struct MotionBenchCommand {
    public var mediaDirectory: String?
    public var json = false
    /// When set, each scene's per-frame trace is written here as LAW-SCENE.csv.
    public var traceDirectory: String?

    public static let help = """
        dockctl bench-motion — OpenDock's control law against obs-face-tracker's PID, in closed loop.

        Usage: dockctl bench-motion [--media DIR] [--json] [--trace-dir DIR]

        Scenes (generated, 1280x720 view, 60° field of view, the simulated gimbal's defaults):
          step   the subject jumps 15° to the right at t = 1 s; settle = within 0.75° (5 %) for good
          walk   the subject walks 0.5 m/s at 3 m (9.5°/s) across ±20° and back
          still  the subject stands 1° off centre for 30 s
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--trace-dir":
                guard let v = rest.popFirst() else { throw UsageError("--trace-dir needs a value") }
                traceDirectory = v
            case "--media":
                guard let v = rest.popFirst() else { throw UsageError("--media needs a value") }
                mediaDirectory = v
            default: throw UsageError("unknown bench-motion option '\(argument)' (see dockctl bench-motion --help)")
            }
        }
    }

    public struct LawFigures: Codable, Sendable {
        public var law: String
        public var stepSettleSeconds: Double?
        public var stepOvershootPercent: Double
        public var walkRMSPercentOfWidth: Double
        public var walkRMSDegrees: Double
        public var stillStartsPerMinute: Double
    }

    static let walkSpeed = 0.5 / 3 * 180 / .pi  // degrees per second: 0.5 m/s at 3 m

    static let step = SceneScript(keyframes: [
        .init(time: 0, yaw: 0), .init(time: 1.0, yaw: 0), .init(time: 1.0 + 1.0 / 30, yaw: 15),
        .init(time: 4.0, yaw: 15),
    ])
    static let walk: SceneScript = {
        let crossing = 40 / walkSpeed
        return SceneScript(keyframes: [
            .init(time: 0, yaw: -20), .init(time: 1, yaw: -20), .init(time: 1 + crossing, yaw: 20),
            .init(time: 2 + crossing, yaw: 20), .init(time: 2 + 2 * crossing, yaw: -20),
        ])
    }()

    func session(_ script: SceneScript, law: ControlLawChoice, name: String) throws(SessionError) -> MeasuredRun {
        var c = SessionConfiguration()
        c.mediaDirectory = mediaDirectory
        c.realTime = false
        c.controlLaw = law
        c.scene.script = script
        // Start with the subject framed, as if it had been acquired before.
        let run = try Pipeline(
            simulating: c, initialPose: Vector3D(x: 0, y: script.keyframes[0].yaw * .pi / 180, z: 0)
        ).runMeasured()
        let summary = run.summary
        if let traceDirectory {
            do { try TraceWriter.write(summary.trace, to: "\(traceDirectory)/\(law.rawValue)-\(name).csv") } catch {
                throw SessionError("cannot write the trace into \(traceDirectory): \(error)")
            }
        }
        return run
    }

    public func measure(_ law: ControlLawChoice) throws(SessionError) -> LawFigures {
        let degrees = 180 / Double.pi
        let stepRun = try session(Self.step, law: law, name: "step")
        let response = MotionMetrics.stepResponse(
            times: stepRun.summary.trace.map(\.time), values: stepRun.summary.trace.map { $0.yaw * degrees },
            stepTime: 1.0, start: 0, target: 15, band: 0.75)
        let walkRun = try session(Self.walk, law: law, name: "walk")
        let fractions = walkRun.metrics?.centeringFractions.sorted ?? []
        let angles = walkRun.metrics?.centeringErrors().sorted ?? []
        let stillRun = try session(.still(yaw: 1, pitch: 0.5, duration: 30), law: law, name: "still")
        let starts = MotionMetrics.motorStarts(stillRun.summary.trace.map { abs($0.commandYaw) + abs($0.commandPitch) })
        return LawFigures(
            law: law.rawValue, stepSettleSeconds: response.settleTime, stepOvershootPercent: response.overshoot * 100,
            walkRMSPercentOfWidth: MotionMetrics.rms(fractions) * 100, walkRMSDegrees: MotionMetrics.rms(angles),
            stillStartsPerMinute: Double(starts) / (stillRun.summary.mediaSeconds / 60))
    }

    public func run(progress: (String) -> Void) throws(SessionError) -> String {
        var figures: [LawFigures] = []
        for law in ControlLawChoice.allCases {
            progress("running the \(law.rawValue) law")
            figures.append(try measure(law))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return String(decoding: (try? encoder.encode(figures)) ?? Data(), as: UTF8.self)
        }
        var lines = ["law    step settle   overshoot   walk RMS (% width)   walk RMS (deg)   still starts/min"]
        for f in figures {
            lines.append(
                f.law.padding(toLength: 6, withPad: " ", startingAt: 0)
                    + String(
                        format: " %10@ %10.1f %% %16.2f %% %15.2f %18.1f",
                        (f.stepSettleSeconds.map { String(format: "%.2f s", $0) } ?? "never") as NSString,
                        f.stepOvershootPercent, f.walkRMSPercentOfWidth, f.walkRMSDegrees, f.stillStartsPerMinute))
        }
        if figures.count == 2, figures[1].walkRMSPercentOfWidth > 0 {
            lines.append(
                String(
                    format: "walk RMS, dock / pid: %.2f",
                    figures[0].walkRMSPercentOfWidth / figures[1].walkRMSPercentOfWidth))
        }
        return lines.joined(separator: "\n")
    }
}
