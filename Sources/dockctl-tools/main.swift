import Foundation

/// dockctl-tools: the verbs of dockctl that need the pipeline, cameras or microphones. dockctl
/// runs it for them (so `dockctl status` and the other verbs for a running dockd load no
/// OpenCV); run directly, it takes the same command lines. Exit status 0 done, 1 runtime
/// error, 64 usage error.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("dockctl: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    fail("dockctl-tools runs dockctl's tool verbs; see dockctl help", status: 64)
}
arguments.removeFirst()
guard let verb = toolVerbs.first(where: { $0.name == name }) else {
    fail("unknown command '\(name)' (try dockctl help)", status: 64)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(verb.help)
    exit(0)
}
do {
    try verb.run(arguments)
} catch {
    if let message = error.message { fail(message, status: error.status) }
    exit(error.status)
}
