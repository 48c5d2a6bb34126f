import BenchRunner
import ControlClient
import Foundation
import Pipeline

/// dockctl: tools around the service. Exit status 0 done, 1 runtime error, 64 usage error.
let usage = """
dockctl — OpenDock's control and benchmark tool.

Usage: dockctl COMMAND [options]

Commands
Talking to a running dockd (dockctl status --help for the options)
  status        what dockd is doing: source, tracking, framing, pose, subjects (--json)
  select        frame the subject at a point, by id, or back to automatic
  framing       framing mode (automatic, center, left, right) or region of interest
  tracking      system tracking on or off
  move          turn at a rate, go to an orientation, or stop (system tracking off)
  animate       yes, no, wakeup or kapow (system tracking off)
  limits        show or narrow the motion limits
  watch         print tracking, motion, accessory, battery or state events as they come
  metrics       the Prometheus figures

Tools
  devices       list V4L2 cameras: stable names, formats, sizes, rates, controls (--json)
  control       read or write a camera's controls by name (zoom, focus, exposure, pan/tilt, …)
  capture       stream frames from a camera and check sizes, sequence numbers, timestamps
  listen        record from a microphone: format, overruns, voice activity and its direction
  bench         the pipeline in closed loop on scene files: tracking figures, peers, report
  scenes        write the generated scene suite, or check scene files
  soak          the looped demo in real time for minutes: memory drift, lag, drops, p99
  bench-decode  MJPEG decode time per frame at full, 1/2 and 1/4 scale
  bench-motion  the control laws side by side: step settle/overshoot, walking error, still starts
  accuracy      detection precision, recall and IoU per detector and size on labelled images
  help          this text (dockctl COMMAND --help for a command's options)
"""

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("dockctl: \(message)\n".utf8))
    exit(status)
}

func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self))
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("no command given (try dockctl help)", status: 64) }
arguments.removeFirst()

switch command {
case "help", "-h", "--help":
    print(usage)
case let verb where ClientCommand.verbs.contains(verb):
    if arguments.contains("--help") || arguments.contains("-h") { print(ClientCommand.help); exit(0) }
    let client: ClientCommand
    do { client = try ClientCommand(verb: verb, arguments: arguments) } catch { fail(error.message, status: 64) }
    let result: Result<Void, ControlClientError>
    do {
        // Written straight to the descriptor: a piped `watch` shows each event as it comes.
        result = try client.run { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    } catch {
        fail(error.message, status: 64)
    }
    if case .failure(let error) = result { fail(error.message, status: 1) }
case "bench":
    if arguments.contains("--help") || arguments.contains("-h") {
        print(BenchCommand.help)
        exit(0)
    }
    let bench: BenchCommand
    do { bench = try BenchCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        let report = try bench.run { FileHandle.standardError.write(Data("dockctl: \($0)\n".utf8)) }
        print(report)
    } catch {
        fail(error.message, status: 1)
    }
case "devices":
    if arguments.contains("--help") { print(DevicesCommand.help); exit(0) }
    do {
        let (output, warnings) = try DevicesCommand.run(arguments: arguments)
        for warning in warnings { FileHandle.standardError.write(Data("dockctl: \(warning)\n".utf8)) }
        print(output)
    } catch {
        fail(error.message, status: 64)
    }
case "control":
    if arguments.contains("--help") { print(ControlCommand.help); exit(0) }
    let result: Result<String, SessionError>
    do { result = try ControlCommand.run(arguments: arguments) } catch { fail(error.message, status: 64) }
    switch result {
    case .success(let output): print(output)
    case .failure(let error): fail(error.message, status: 1)
    }
case "capture":
    if arguments.contains("--help") { print(CaptureCommand.help); exit(0) }
    let capture: CaptureCommand
    do { capture = try CaptureCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        let report = try capture.run()
        if capture.json {
            printJSON(report)
        } else {
            print(CaptureCommand.describe(report))
        }
        exit(report.passed ? 0 : 1)
    } catch {
        fail(error.message, status: 1)
    }
case "listen":
    if arguments.contains("--help") { print(ListenCommand.help); exit(0) }
    let listen: ListenCommand
    do { listen = try ListenCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        let report = try listen.run()
        if listen.json {
            printJSON(report)
        } else {
            print(ListenCommand.describe(report))
        }
    } catch {
        fail(error.message, status: 1)
    }
case "bench-motion":
    if arguments.contains("--help") { print(MotionBenchCommand.help); exit(0) }
    let bench: MotionBenchCommand
    do { bench = try MotionBenchCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        print(try bench.run { FileHandle.standardError.write(Data("dockctl: \($0)\n".utf8)) })
    } catch {
        fail(error.message, status: 1)
    }
case "accuracy":
    if arguments.contains("--help") { print(AccuracyCommand.help); exit(0) }
    let accuracy: AccuracyCommand
    do { accuracy = try AccuracyCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        let rows = try accuracy.evaluate { FileHandle.standardError.write(Data("dockctl: \($0)\n".utf8)) }
        print(accuracy.json ? AccuracyCommand.json(rows) : AccuracyCommand.report(rows))
    } catch {
        fail(error.message, status: 1)
    }
case "bench-decode":
    if arguments.contains("--help") { print(DecodeBenchCommand.help); exit(0) }
    let bench: DecodeBenchCommand
    do { bench = try DecodeBenchCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        print(try bench.run { FileHandle.standardError.write(Data("dockctl: \($0)\n".utf8)) })
    } catch {
        fail(error.message, status: 1)
    }
case "scenes":
    if arguments.contains("--help") || arguments.isEmpty { print(ScenesCommand.help); exit(arguments.isEmpty ? 64 : 0) }
    do { try ScenesCommand.run(arguments: arguments).forEach { print($0) } } catch { fail(error.message, status: 1) }
case "soak":
    if arguments.contains("--help") { print(SoakCommand.help); exit(0) }
    let soak: SoakCommand
    do { soak = try SoakCommand(arguments: arguments) } catch { fail(error.message, status: 64) }
    do {
        let result = try soak.run { FileHandle.standardError.write(Data("dockctl: \($0)\n".utf8)) }
        print(SoakCommand.report(result, json: soak.json))
        if soak.check {
            let failures = SoakCommand.failures(result)
            guard failures.isEmpty else { fail("soak check failed: " + failures.joined(separator: "; "), status: 1) }
            FileHandle.standardError.write(Data("dockctl: soak check passed\n".utf8))
        }
    } catch {
        fail(error.message, status: 1)
    }
case "peer-run":
    if arguments.contains("--help") { print(PeerRunCommand.help); exit(0) }
    do { print(try PeerRunCommand.run(arguments: arguments)) } catch { fail(error.message, status: 1) }
default:
    fail("unknown command '\(command)' (try dockctl help)", status: 64)
}
