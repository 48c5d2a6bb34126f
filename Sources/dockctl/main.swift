import Foundation
import Service

/// dockctl: tools around the service. Exit status 0 done, 1 runtime error, 64 usage error.
let usage = """
dockctl — OpenDock's control and benchmark tool.

Usage: dockctl COMMAND [options]

Commands
  bench     run the pipeline on the demo scene; print fps and per-stage latency
  help      this text (dockctl COMMAND --help for a command's options)
"""

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("dockctl: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("no command given (try dockctl help)", status: 64) }
arguments.removeFirst()

switch command {
case "help", "-h", "--help":
    print(usage)
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
default:
    fail("unknown command '\(command)' (try dockctl help)", status: 64)
}
