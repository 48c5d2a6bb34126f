import BenchRunner
import Calibration
import DetectionBench
import DockCore
import Foundation
import PeerBench
import Pipeline
import Soak

/// How a tool verb ends when it does not succeed: the exit status (64 usage, 1 runtime) and
/// the one line to print, if any (a failed check has already printed its report).
struct ToolExit: Error {
    let status: Int32
    let message: String?

    static func usage(_ message: String) -> ToolExit { ToolExit(status: 64, message: message) }
    static func failed(_ message: String?) -> ToolExit { ToolExit(status: 1, message: message) }
}

/// One of dockctl's tool verbs: its `--help` text and what it does with the rest of the line.
struct ToolVerb: Sendable {
    let name: String
    let help: String
    let run: @Sendable ([String]) throws(ToolExit) -> Void
}

/// Progress lines go to standard error, so a verb's report on standard output stays clean.
@Sendable func progress(_ line: String) {
    FileHandle.standardError.write(Data("dockctl: \(line)\n".utf8))
}

func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self))
}

/// Parses with `parse` (a usage error exits 64), then runs with `body` (a failure exits 1).
func parsed<Command>(
    _ parse: () throws -> Command, then body: (Command) throws -> Void
) throws(ToolExit) {
    let command: Command
    do { command = try parse() } catch { throw .usage(describe(error)) }
    do { try body(command) } catch let exit as ToolExit { throw exit } catch { throw .failed(describe(error)) }
}

func describe(_ error: any Error) -> String {
    switch error {
    case let usage as UsageError: usage.message
    case let session as SessionError: session.message
    case let calibration as CalibrationError: calibration.description
    default: String(describing: error)
    }
}

/// Every tool verb, in the order `dockctl help` lists them; dockctl's own table names the same.
let toolVerbs: [ToolVerb] = [
    ToolVerb(name: "devices", help: DevicesCommand.help) { arguments throws(ToolExit) in
        do {
            let (output, warnings) = try DevicesCommand.run(arguments: arguments)
            for warning in warnings { progress(warning) }
            print(output)
        } catch { throw .usage(describe(error)) }
    },
    ToolVerb(name: "control", help: ControlCommand.help) { arguments throws(ToolExit) in
        let result: Result<String, SessionError>
        do { result = try ControlCommand.run(arguments: arguments) } catch { throw .usage(describe(error)) }
        switch result {
        case .success(let output): print(output)
        case .failure(let error): throw .failed(error.message)
        }
    },
    ToolVerb(name: "capture", help: CaptureCommand.help) { arguments throws(ToolExit) in
        try parsed({ try CaptureCommand(arguments: arguments) }) { capture in
            let report = try capture.run()
            if capture.json { printJSON(report) } else { print(CaptureCommand.describe(report)) }
            if !report.passed { throw ToolExit.failed(nil) }
        }
    },
    ToolVerb(name: "listen", help: ListenCommand.help) { arguments throws(ToolExit) in
        try parsed({ try ListenCommand(arguments: arguments) }) { listen in
            let report = try listen.run()
            if listen.json { printJSON(report) } else { print(ListenCommand.describe(report)) }
        }
    },
    ToolVerb(name: "calibrate", help: CalibrateCommand.help) { arguments throws(ToolExit) in
        try parsed({ try CalibrateCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "doctor", help: DoctorCommand.help) { arguments throws(ToolExit) in
        try parsed({ try DoctorCommand(arguments: arguments) }) { doctor in
            let findings = doctor.run()
            print(DoctorCommand.describe(findings))
            if findings.contains(where: { $0.status == .problem }) { throw ToolExit.failed(nil) }
        }
    },
    ToolVerb(name: "bench", help: BenchCommand.help) { arguments throws(ToolExit) in
        try parsed({ try BenchCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "label", help: LabelCommand.help) { arguments throws(ToolExit) in
        try parsed({ try LabelCommand(arguments: arguments) }) { label in
            for line in try label.run(progress: progress) { print(line) }
        }
    },
    ToolVerb(name: "review", help: ReviewCommand.help) { arguments throws(ToolExit) in
        try parsed({ try ReviewCommand(arguments: arguments) }) { review in
            for line in try review.run(progress: progress) { print(line) }
        }
    },
    ToolVerb(name: "scenes", help: ScenesCommand.help) { arguments throws(ToolExit) in
        do {
            for line in try ScenesCommand.run(arguments: arguments) { print(line) }
        } catch { throw .failed(describe(error)) }
    },
    ToolVerb(name: "soak", help: SoakCommand.help) { arguments throws(ToolExit) in
        try parsed({ try SoakCommand(arguments: arguments) }) { soak in
            let result = try soak.run(progress: progress)
            print(SoakCommand.report(result, json: soak.json))
            guard soak.check else { return }
            let failures = SoakCommand.failures(result)
            guard failures.isEmpty else {
                throw ToolExit.failed("soak check failed: " + failures.joined(separator: "; "))
            }
            progress("soak check passed")
        }
    },
    ToolVerb(name: "bench-live", help: LiveBudgetCommand.help) { arguments throws(ToolExit) in
        try parsed({ try LiveBudgetCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "bench-decode", help: DecodeBenchCommand.help) { arguments throws(ToolExit) in
        try parsed({ try DecodeBenchCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "bench-motion", help: MotionBenchCommand.help) { arguments throws(ToolExit) in
        try parsed({ try MotionBenchCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "bench-client", help: ClientLatencyCommand.help) { arguments throws(ToolExit) in
        try parsed({ try ClientLatencyCommand(arguments: arguments) }) { print(try $0.run(progress: progress)) }
    },
    ToolVerb(name: "accuracy", help: AccuracyCommand.help) { arguments throws(ToolExit) in
        try parsed({ try AccuracyCommand(arguments: arguments) }) { accuracy in
            let rows = try accuracy.evaluate(progress: progress)
            print(accuracy.json ? AccuracyCommand.json(rows) : AccuracyCommand.report(rows))
        }
    },
    ToolVerb(name: "peer-run", help: PeerRunCommand.help) { arguments throws(ToolExit) in
        do { print(try PeerRunCommand.run(arguments: arguments)) } catch { throw .failed(describe(error)) }
    },
]
