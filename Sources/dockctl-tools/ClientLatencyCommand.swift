import Bench
import ControlClient
import DockCore
import DockKit
import Foundation
import Pipeline

/// `dockctl bench-client`: a DockKit program's `track()` → motor command latency over dockd's
/// socket. Starts a dockd (the demo, simulated gimbal, beside this executable) on a socket of
/// its own, docks its accessory as any DockKit program does, and calls `track` at a fixed rate
/// with system tracking off: per call, from just before the call to the moment dockd
/// commanded the motors (both on CLOCK_MONOTONIC), and the whole round trip.
struct ClientLatencyCommand {
    var seconds = 10.0
    var rate = 30.0

    static let help = """
        dockctl bench-client — DockKit client track() → motor command latency over dockd's socket.

        Usage: dockctl bench-client [--seconds S] [--rate HZ]

        Starts dockd --demo on a socket of its own (the dockd beside this executable), calls track()
        at HZ (default 30) for S seconds (default 10) as a DockKit program, and prints p50/p99 of
        call → motor command and of the round trip.
        """

    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seconds":
                guard let v = rest.popFirst(), let n = Double(v), n > 0, n <= 3600 else {
                    throw UsageError("--seconds expects a number of seconds, up to 3600")
                }
                seconds = n
            case "--rate":
                guard let v = rest.popFirst(), let n = Double(v), (10...30).contains(n) else {
                    throw UsageError("--rate expects 10 to 30 calls a second (DockKit's contract)")
                }
                rate = n
            default: throw UsageError("unknown bench-client option '\(argument)' (see dockctl bench-client --help)")
            }
        }
    }

    struct Result: Sendable {
        var toCommand: Percentiles
        var roundTrip: Percentiles
        var refused: Int
    }

    func run(progress: (String) -> Void) throws(SessionError) -> String {
        let socket = NSTemporaryDirectory() + "opendock-bench-client-\(getpid()).sock"
        let dockd = try startDockd(socket: socket)
        defer {
            dockd.terminate()
            dockd.waitUntilExit()
        }
        progress("dockd started on \(socket); \(Int(seconds * rate)) track calls at \(Int(rate)) Hz")
        let result = try measure(socket: socket)
        func ms(_ p: Percentiles, _ at: Double) -> String { String(format: "%.2f", (p.value(at: at) ?? .nan) * 1000) }
        return """
            track() → motor command over the socket: \(result.toCommand.count) calls, \(result.refused) refused
            figure                 p50 ms   p99 ms    max ms
            call → command       \(ms(result.toCommand, 50).leftPadded(8)) \(ms(result.toCommand, 99).leftPadded(8)) \(ms(result.toCommand, 100).leftPadded(9))
            round trip           \(ms(result.roundTrip, 50).leftPadded(8)) \(ms(result.roundTrip, 99).leftPadded(8)) \(ms(result.roundTrip, 100).leftPadded(9))
            """
    }

    private func startDockd(socket: String) throws(SessionError) -> Process {
        let path = OwnExecutable.beside("dockd")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SessionError("bench-client needs dockd beside dockctl-tools (\(path)); build it with swift build")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--demo", "--loop", "--bodies", "none", "--quiet", "--control-socket", socket]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw SessionError("cannot start \(path): \(error)") }
        return process
    }

    private func measure(socket: String) throws(SessionError) -> Result {
        let outcome = Protected<Swift.Result<Result, SessionError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let (seconds, rate) = (seconds, rate)
        Task {
            let result: Swift.Result<Result, SessionError>
            do {
                result = .success(try await Self.calls(socket: socket, seconds: seconds, rate: rate))
            } catch let error as SessionError {
                result = .failure(error)
            } catch {
                result = .failure(SessionError("the client failed: \(error)"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }

    /// The DockKit program: dock the accessory dockd serves, switch system tracking off, call
    /// `track` on a fixed schedule, give tracking back.
    private static func calls(socket: String, seconds: Double, rate: Double) async throws -> Result {
        let manager = DockAccessoryManager()
        let watcher = DockdWatcher(manager: manager, endpoint: .unix(path: socket), retryInterval: 0.1)
        watcher.start()
        defer { watcher.stop() }
        let deadline = Date().addingTimeInterval(60)
        while manager.accessories.isEmpty {
            guard Date() < deadline else { throw SessionError("dockd did not dock an accessory within 60 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard case .remote(let dock) = manager.accessories[0].backing else {
            throw SessionError("the accessory docked is not dockd's")
        }
        try await manager.setSystemTrackingEnabled(false)
        let camera = DockAccessory.CameraInformation(
            captureDevice: nil, cameraPosition: .unspecified, orientation: .corrected,
            cameraIntrinsics: CameraIntrinsics(fx: 900, fy: 900, cx: 640, cy: 360).cameraMatrix,
            referenceDimensions: CGSize(width: 1280, height: 720))
        let face = DockAccessory.Observation(
            identifier: 1, type: .humanFace, rect: CGRect(x: 0.55, y: 0.45, width: 0.08, height: 0.15))
        let clock = SystemMonotonicClock()
        var toCommand: [Double] = []
        var roundTrip: [Double] = []
        var refused = 0
        let schedule = ContinuousClock()
        var due = schedule.now
        for _ in 0..<Int(seconds * rate) {
            let start = clock.now
            do {
                let commanded = try await dock.track([face], camera: camera, age: 0)
                let end = clock.now
                roundTrip.append(end.seconds(since: start))
                if let commanded { toCommand.append(commanded - start.seconds(since: .zero)) }
            } catch {
                refused += 1
            }
            due = due.advanced(by: .seconds(1 / rate))
            try await schedule.sleep(until: due)
        }
        try await manager.setSystemTrackingEnabled(true)
        dock.close()
        return Result(toCommand: Percentiles(toCommand), roundTrip: Percentiles(roundTrip), refused: refused)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
