import Foundation

/// This process's executable, and the programs installed beside it (dockctl runs
/// dockctl-tools, which runs itself for the peer comparison and dockd for the client bench).
package enum OwnExecutable {
    /// The executable's path: /proc/self/exe, else the command line's first word.
    package static var path: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Where `name` is when it is installed beside this executable.
    package static func beside(_ name: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    }
}
