import ControlClient
import DockCore
import DockKit
import DockKitInProcess
import Foundation

/// dockd's end of a DockKit program's session (`DockSession`): requests as JSON lines on one
/// connection, answered in order, custom tracking among them. The program holds the dock while
/// the connection is open; when it ends — closed, broken, or the program killed — the motors
/// stop and every setting the program changed is put back as it found it.
final class DockKitSessionServer {
    let api: ControlAPI
    let channel: JSONLineChannel
    let connection: UpgradedConnection
    private var restore: SessionRestore
    /// Motions a request started (orientation, animation), told to the client when they end.
    private var motions: [(id: Int, progress: Progress)] = []

    init(api: ControlAPI, connection: UpgradedConnection) {
        self.api = api
        self.connection = connection
        channel = JSONLineChannel(descriptor: connection.descriptor, pending: connection.pending)
        restore = SessionRestore(api: api)
    }

    /// Serves the session until the client goes or dockd stops, then hands the dock back.
    func run() {
        defer { handBack() }
        while !connection.isServerClosing {
            reportEndedMotions()
            switch channel.receive(timeout: motions.isEmpty ? 0.2 : 0.01) {
            case .idle: continue
            case .closed: return
            case .line(let line):
                guard (try? channel.send(answer(line))) != nil else { return }
            }
        }
    }

    private func handBack() {
        for motion in motions { motion.progress.cancel() }
        restore.handBack()
        api.releaseHold()
    }

    private func reportEndedMotions() {
        let ended = motions.filter { $0.progress.isFinished || $0.progress.isCancelled }
        guard !ended.isEmpty else { return }
        motions.removeAll { $0.progress.isFinished || $0.progress.isCancelled }
        for motion in ended { try? channel.send(["finished": motion.id, "completed": !motion.progress.isCancelled]) }
    }

    /// The reply to one request line.
    private func answer(_ line: Data) -> [String: Any] {
        let fields: JSONFields
        do { fields = try JSONFields.parse(line) } catch {
            return ["id": 0, "error": "malformed JSON: \(error.problem); send one object per line", "status": 400]
        }
        let id = (try? fields.integer("id", in: 0...Int(Int32.max))).flatMap { $0 } ?? 0
        let op = (try? fields.string("op")).flatMap { $0 }
        do {
            guard let op else {
                throw ControlAPI.RequestError(400, "every request needs \"op\"; see docs/dockkit.md, \"The session\"")
            }
            var reply = try perform(op, fields, id: id)
            reply["id"] = id
            reply["ok"] = true
            return reply
        } catch let error as ControlAPI.RequestError {
            return ["id": id, "error": error.message, "status": error.status]
        } catch let error as JSONFieldError {
            return ["id": id, "error": error.description, "status": 400]
        } catch let error as DockKitError {
            return ControlAPI.refusalFields(error, path: "the session's \(op ?? "request")").merging(["id": id]) { $1 }
        } catch {
            return ["id": id, "error": "\(error)", "status": 500]
        }
    }

    private func perform(_ op: String, _ fields: JSONFields, id: Int) throws -> [String: Any] {
        restore.noteChange(op)
        switch op {
        case "track":
            let (observations, camera, age) = try TrackMessage.parse(fields)
            let outcome = try api.accessory.clientTrack(observations, camera: camera, age: age)
            // When the motors were told, on the monotonic clock the client shares: its latency.
            return [
                "command": ControlJSON.vector(outcome.command),
                "commandedAt": SystemMonotonicClock().now.seconds(since: .zero),
            ]
        case "orientation", "animate":
            let started = try op == "animate" ? api.startAnimation(fields) : api.startOrientation(fields)
            motions.append((id, started.progress))
            return started.answer
        default:
            guard let path = ControlAPI.sessionPaths[op] else {
                throw ControlAPI.RequestError(
                    400,
                    "unknown op '\(op)'; ops: track, orientation, animate, \(ControlAPI.sessionPaths.keys.sorted().joined(separator: ", "))"
                )
            }
            let response = try api.command(path, fields)
            return response
        }
    }
}

/// What a session changed, and how to put it back: the settings as the session found them.
struct SessionRestore {
    let api: ControlAPI
    let systemTracking: Bool
    let framingMode: DockAccessory.FramingMode
    let region: CGRect
    let limits: DockAccessory.Limits
    let locked: [UUID]
    private var changed: Set<String> = []

    init(api: ControlAPI) {
        self.api = api
        let dock = api.accessory
        systemTracking = dock.isSystemTrackingEnabled
        framingMode = dock.framingMode
        region = dock.regionOfInterest
        limits = dock.limits
        locked = dock.lockedSubjects
    }

    mutating func noteChange(_ op: String) { changed.insert(op) }

    /// Stops what the session set moving, then restores each setting it changed.
    func handBack() {
        let dock = api.accessory
        dock.haltClientMotion()
        if changed.contains("framing") { dock.applyFramingMode(framingMode) }
        if changed.contains("region") { try? dock.setRegion(region) }
        if changed.contains("limits") { try? dock.setLimits(limits) }
        if changed.contains("select") { try? dock.lockSubjects(locked) }
        if changed.contains("systemTracking") || dock.isSystemTrackingEnabled != systemTracking {
            api.setSystemTracking(systemTracking)
        }
    }
}
