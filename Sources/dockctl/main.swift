import ControlClient
import DockCore
import Foundation

/// dockctl: tools around the service. The verbs for a running dockd run here and link no
/// OpenCV; the tool verbs run in dockctl-tools beside this executable. Exit status 0 done,
/// 1 runtime error, 64 usage error.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("dockctl: \(message)\n".utf8))
    exit(status)
}

/// Replaces this process with dockctl-tools from the same directory, the verb and its options
/// passed on unchanged.
func runTools(_ arguments: [String]) -> Never {
    let tools = OwnExecutable.beside("dockctl-tools")
    guard FileManager.default.isExecutableFile(atPath: tools) else {
        fail(
            "'\(arguments[0])' runs in dockctl-tools, which is not beside dockctl (\(tools)); "
                + "build it with swift build --product dockctl-tools", status: 1)
    }
    var argv: [UnsafeMutablePointer<CChar>?] = ([tools] + arguments).map { strdup($0) } + [nil]
    execv(tools, &argv)
    fail("cannot run \(tools): \(Errno.current)", status: 1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else { fail("no command given (try dockctl help)", status: 64) }
if ["help", "-h", "--help"].contains(name) {
    print(usage)
    exit(0)
}
guard let verb = dockctlVerbs.first(where: { $0.name == name }) else {
    fail("unknown command '\(name)' (try dockctl help)", status: 64)
}
if verb.runner == .tools { runTools(arguments) }
arguments.removeFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(ClientCommand.help)
    exit(0)
}
let client: ClientCommand
do { client = try ClientCommand(verb: name, arguments: arguments) } catch { fail(error.message, status: 64) }
let result: Result<Void, ControlClientError>
do {
    // Written straight to the descriptor: a piped `watch` shows each event as it comes.
    result = try client.run { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
} catch {
    fail(error.message, status: 64)
}
if case .failure(let error) = result { fail(error.message, status: 1) }
