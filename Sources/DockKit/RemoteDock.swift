import ControlClient
import DockCore
import Foundation

/// A refusal from dockd that none of DockKit's errors names (another program holds the dock,
/// dockd stopped): its one-line reason.
public struct DockServiceError: Error, LocalizedError, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public var errorDescription: String? { message }
}

/// The dock a running dockd serves, seen from a DockKit program. Settings are mirrored from
/// dockd's status and kept current by the replies; commands and `track` calls go over one
/// `DockSession`, opened at the first of them (a program that only watches holds nothing);
/// the event streams are dockd's server-sent events, each followed on a thread of its own.
package final class RemoteDock: Sendable {
    package struct Mirror: Sendable {
        var systemTracking: Bool
        var framingMode: DockAccessory.FramingMode
        var region: CGRect
        var limits: DockAccessory.Limits
    }

    package let connection: ControlConnection
    package let identifier: DockAccessory.Identifier
    package let hardwareModel: String?
    package let firmwareVersion: String?
    /// Whether dockd's head reports a battery (a SimpleBGC's voltage).
    package let reportsBattery: Bool
    private let state: Protected<Mirror>
    private let session = Protected<DockSession?>(nil)

    /// The dock dockd describes as `identity`, its settings read from `/v1/status`.
    package init(connection: ControlConnection, identity: Any?) throws(DockServiceError) {
        guard let (identifier, model, firmware) = ControlJSON.readIdentity(identity) else {
            throw DockServiceError(message: "dockd described its accessory in a way this DockKit cannot read")
        }
        self.connection = connection
        self.identifier = identifier
        hardwareModel = model
        firmwareVersion = firmware
        let reply: ControlReply
        do { reply = try connection.request("GET", "/v1/status") } catch {
            throw DockServiceError(message: error.message)
        }
        guard let status = reply.object, let limits = ControlJSON.readLimits(status["limits"]) else {
            throw DockServiceError(message: "dockd's status could not be read (\(reply.errorMessage ?? "not JSON"))")
        }
        reportsBattery = status["reportsBattery"] as? Bool ?? false
        state = Protected(
            Mirror(
                systemTracking: status["systemTracking"] as? Bool ?? true,
                framingMode: (status["framingMode"] as? String).flatMap { ControlJSON.framingModes[$0] } ?? .automatic,
                region: ControlJSON.readRect(status["regionOfInterest"]) ?? CGRect(x: 0, y: 0, width: 1, height: 1),
                limits: limits))
    }

    package var mirror: Mirror { state.withLock { $0 } }

    /// Ends the session, if one is open: dockd puts back what this program changed.
    package func close() {
        closed.withLock { $0 = true }
        session.withLock { $0 }?.close()
    }

    /// Whether this dock went away (dockd stopped, or its head fell silent): every call and
    /// stream then throws `notConnected`, as Apple's do for an undocked accessory.
    package var isClosed: Bool { closed.withLock { $0 } }
    private let closed = Protected(false)

    /// A failure to reach dockd is DockKit's `notConnected`; a refusal it gives that DockKit
    /// names nothing for stays dockd's message.
    static func failure(_ error: ControlClientError) -> any Error {
        error.refusalStatus == nil ? DockKitError.notConnected : DockServiceError(message: error.message)
    }

    // MARK: Requests

    /// Sends a `track` call; returns when dockd commanded the motors for it (seconds on the
    /// monotonic clock both processes share), when it says.
    @discardableResult
    package func track(
        _ observations: [DockAccessory.Observation], camera: DockAccessory.CameraInformation, age: Double
    ) async throws -> Double? {
        // An observation a minute old is as stale as one an hour old: dockd takes ages up to 60 s.
        let line = try await request(
            "track", TrackMessage.fields(observations, camera: camera, age: min(age, TrackMessage.maximumAge)))
        let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
        return object?["commandedAt"] as? Double
    }

    /// Sends a command and waits for dockd's answer; the mirror follows what it says.
    package func send(_ op: String, _ fields: [String: Any]) async throws {
        let line = try await request(op, fields)
        remember(op, reply: line)
    }

    /// Starts a motion (orientation, animation); its progress completes when dockd says the
    /// motion ended, or is cancelled when it was cut short.
    package func startMotion(_ op: String, _ fields: [String: Any]) async throws -> Progress {
        let progress = Progress(totalUnitCount: 1)
        _ = try await request(op, fields) { completed in
            if completed { progress.completedUnitCount = 1 } else { progress.cancel() }
        }
        return progress
    }

    /// A motion started from synchronous code: refused at once while system tracking is on (as
    /// last reported), else sent without waiting; a later refusal cancels the progress.
    package func startMotionNow(_ op: String, _ fields: [String: Any]) throws -> Progress {
        guard !isClosed else { throw DockKitError.notConnected }
        guard !mirror.systemTracking else { throw DockKitError.notSupported }
        let progress = Progress(totalUnitCount: 1)
        try openSession().request(
            op, fields,
            onMotionEnd: { completed in
                if completed { progress.completedUnitCount = 1 } else { progress.cancel() }
            },
            reply: { reply in
                if case .success(let line) = reply, Self.refusal(in: line) == nil { return }
                progress.cancel()
            })
        return progress
    }

    /// Asks dockd to switch system tracking without waiting for its answer (from the thread
    /// that found this dock, never Swift's); the mirror takes the choice at once, so a motor
    /// call made straight after is not refused for the old state.
    package func requestSystemTracking(_ enabled: Bool) {
        state.withLock { $0.systemTracking = enabled }
        do {
            try openSession().request("systemTracking", ["enabled": enabled], onMotionEnd: nil) { [self] reply in
                if case .success(let line) = reply { remember("systemTracking", reply: line) }
            }
        } catch {
            // dockd went away as it was found: the watcher undocks it and docks it again later.
            state.withLock { $0.systemTracking = true }
        }
    }

    /// `setLimits` is synchronous in DockKit: checked here against the axes dockd reported,
    /// remembered at once, and sent without waiting.
    package func setLimits(_ limits: DockAccessory.Limits) throws {
        let known = mirror.limits
        if (limits.yaw != nil && known.yaw == nil) || (limits.pitch != nil && known.pitch == nil)
            || (limits.roll != nil && known.roll == nil)
        {
            throw DockKitError.notSupportedByDevice
        }
        var fields: [String: Any] = [:]
        for (name, axis) in [("yaw", limits.yaw), ("pitch", limits.pitch), ("roll", limits.roll)] {
            guard let axis else { continue }
            fields[name] = [
                "min": axis.positionRange.lowerBound, "max": axis.positionRange.upperBound,
                "maximumSpeed": axis.maximumSpeed,
            ]
        }
        let open = try openSession()
        let before = state.withLock { mirror in
            defer { mirror.limits = limits }
            return mirror.limits
        }
        open.request("limits", fields) { [self] reply in
            if case .success(let line) = reply, Self.refusal(in: line) == nil {
                remember("limits", reply: line)
            } else {
                state.withLock { $0.limits = before }
            }
        }
    }

    /// Sends one request on the session (opening it if need be) and waits for its answer.
    private func request(
        _ op: String, _ fields: [String: Any], onMotionEnd: (@Sendable (Bool) -> Void)? = nil
    ) async throws -> Data {
        let open = try await sessionOffThePool()
        return try await withCheckedThrowingContinuation { continuation in
            open.request(op, fields, onMotionEnd: onMotionEnd) { reply in
                switch reply {
                case .success(let line):
                    if let refusal = Self.refusal(in: line) {
                        continuation.resume(throwing: refusal)
                    } else {
                        continuation.resume(returning: line)
                    }
                case .failure(let error):
                    continuation.resume(throwing: Self.failure(error))
                }
            }
        }
    }

    /// The open session for an async caller: opening one connects and switches protocols,
    /// which blocks, so that happens on a thread of its own, never on Swift's threads.
    private func sessionOffThePool() async throws -> DockSession {
        if let current = session.withLock({ $0 }), current.closedBecause == nil { return current }
        let opened = try await withCheckedThrowingContinuation { continuation in
            Thread { [self] in
                continuation.resume(with: Result { try openSession() })
            }.start()
        }
        // Taken back under the lock the opening thread stored it under, which orders everything
        // that thread wrote before this one's use (ThreadSanitizer cannot see through the
        // continuation).
        return session.withLock { $0 } ?? opened
    }

    /// The open session, opened now if need be (blocking: for DockKit's synchronous calls).
    private func openSession() throws -> DockSession {
        guard !isClosed else { throw DockKitError.notConnected }
        return try session.withLock { open throws -> DockSession in
            if let current = open, current.closedBecause == nil { return current }
            let opened: DockSession
            do { opened = try DockSession(connection: connection) } catch let error as ControlClientError {
                throw Self.failure(error)
            }
            open = opened
            return opened
        }
    }

    /// The error a reply carries: DockKit's own when dockd names one, else dockd's message.
    static func refusal(in line: Data) -> (any Error)? {
        guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
            return DockServiceError(message: "dockd answered with something that is not JSON")
        }
        if let name = object["dockKitError"] as? String, let error = DockKitError(name: name) { return error }
        guard let message = object["error"] as? String else { return nil }
        let status = object["status"] as? Int ?? 0
        return status == 400 || status == 422 ? DockKitError.invalidParameter : DockServiceError(message: message)
    }

    /// What an accepted command changed, as dockd reports it.
    private func remember(_ op: String, reply line: Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else { return }
        state.withLock { mirror in
            if let name = object["framingMode"] as? String, let mode = ControlJSON.framingModes[name] {
                mirror.framingMode = mode
            }
            if let region = ControlJSON.readRect(object["regionOfInterest"]) { mirror.region = region }
            if op == "limits", let limits = ControlJSON.readLimits(object) { mirror.limits = limits }
            if let enabled = object["systemTracking"] as? Bool { mirror.systemTracking = enabled }
        }
    }

    // MARK: Event streams

    package func trackingStates() -> DockAccessory.TrackingStates {
        follow("tracking", buffer: 4, ControlJSON.readTrackingState)
    }

    package func motionStates() -> DockAccessory.MotionStates {
        follow("motion", buffer: 8, ControlJSON.readMotionState)
    }

    package func accessoryEvents() -> DockAccessory.AccessoryEvents {
        follow("accessory", buffer: 32, ControlJSON.readEvent)
    }

    package func batteryStates() -> DockAccessory.BatteryStates {
        follow("battery", buffer: 8, ControlJSON.readBattery)
    }

    /// dockd's event stream `name` as an async stream, read on a thread of its own until the
    /// stream's reader goes away or dockd ends it.
    private func follow<Value: Sendable>(
        _ name: String, buffer: Int, _ read: @escaping @Sendable ([String: Any]) -> Value?
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let ended = Protected(false)
        continuation.onTermination = { _ in ended.withLock { $0 = true } }
        let connection = connection
        let thread = Thread {
            _ = try? connection.events("/v1/events/\(name)", keepGoing: { !ended.withLock { $0 } }) { _, data in
                if let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any],
                    let value = read(object)
                {
                    continuation.yield(value)
                }
                return !ended.withLock { $0 }
            }
            continuation.finish()
        }
        thread.name = "opendock.events.\(name)"
        thread.start()
        return stream
    }
}
