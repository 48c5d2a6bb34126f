import DockCore
import Foundation
import Glibc

/// A DockKit program's session with dockd: one persistent connection — `POST /v1/session`
/// switched to `JSONLineChannel` — carrying requests with ids, their replies, and a
/// `{"finished": id}` message when a motion a request started ends. While it is open the
/// program holds the dock; when it closes, dockd stops the motors and restores what the
/// program changed. Replies are read on a thread of the session's own.
public final class DockSession: Sendable {
    public static let protocolName = "opendock-dockkit/1"
    public static let path = "/v1/session"

    /// A reply line (`{"id": n, "ok": true, …}` or `{"id": n, "error": …}`), or why none came.
    public typealias Reply = Result<Data, ControlClientError>

    private struct State {
        var nextID = 1
        var waiting: [Int: @Sendable (Reply) -> Void] = [:]
        var motions: [Int: @Sendable (Bool) -> Void] = [:]
        var closedBecause: String?
    }
    private let state = Protected(State())
    private let channel: JSONLineChannel

    /// Opens the session (dockd refuses it, with its reason, while another program holds the
    /// dock); `onClose` is told once, with why, when it ends.
    public init(connection: ControlConnection, onClose: @escaping @Sendable (String) -> Void = { _ in })
        throws(ControlClientError)
    {
        let (descriptor, pending) = try connection.upgrade(Self.path, to: Self.protocolName)
        channel = JSONLineChannel(descriptor: descriptor, pending: pending)
        let thread = Thread { [state, channel] in
            let reason = Self.readReplies(channel, state)
            let (waiting, motions) = state.withLock { state in
                state.closedBecause = reason
                defer {
                    state.waiting = [:]
                    state.motions = [:]
                }
                return (Array(state.waiting.values), Array(state.motions.values))
            }
            channel.descriptor.close()
            for reply in waiting { reply(.failure(ControlClientError("the session with dockd ended: \(reason)"))) }
            for motion in motions { motion(false) }
            onClose(reason)
        }
        thread.name = "opendock.session"
        thread.start()
    }

    /// Why the session ended, nil while it is open.
    public var closedBecause: String? { state.withLock { $0.closedBecause } }

    /// Sends `op` with `fields`; `reply` gets dockd's answer (on the session's thread: it must
    /// not block). `onMotionEnd` is told whether a motion the request started completed.
    public func request(
        _ op: String, _ fields: [String: Any] = [:], onMotionEnd: (@Sendable (Bool) -> Void)? = nil,
        reply: @escaping @Sendable (Reply) -> Void
    ) {
        let opened: Int? = state.withLock { state in
            guard state.closedBecause == nil else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.waiting[id] = reply
            if let onMotionEnd { state.motions[id] = onMotionEnd }
            return id
        }
        guard let id = opened else {
            reply(.failure(ControlClientError("the session with dockd ended: \(closedBecause ?? "closed")")))
            return
        }
        var message = fields
        message["id"] = id
        message["op"] = op
        do { try channel.send(message) } catch {
            let unsent = state.withLock { state in
                state.motions[id] = nil
                return state.waiting.removeValue(forKey: id)
            }
            unsent?(.failure(error))
        }
    }

    /// Ends the session: dockd restores the dock as the program found it.
    public func close() { _ = shutdown(channel.descriptor.rawValue, Int32(SHUT_RDWR)) }

    /// Hands each line to whoever waits for it, until the connection ends; returns why it did.
    private static func readReplies(_ channel: JSONLineChannel, _ state: Protected<State>) -> String {
        while true {
            switch channel.receive(timeout: 1) {
            case .idle: continue
            case .closed(let reason): return reason
            case .line(let line):
                guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
                    return "dockd sent a line that is not a JSON object"
                }
                if let id = object["finished"] as? Int {
                    let completed = object["completed"] as? Bool ?? false
                    state.withLock { $0.motions.removeValue(forKey: id) }?(completed)
                } else if let id = object["id"] as? Int {
                    state.withLock { $0.waiting.removeValue(forKey: id) }?(.success(line))
                }
            }
        }
    }
}
