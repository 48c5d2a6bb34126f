import DockCore
import Foundation
import Synchronization

public enum LinkEvent: Sendable, Equatable {
    case connected(String)
    case disconnected(String)
}

/// Keeps a link to a device: a reader thread hands every received byte to `onBytes`; when the
/// link drops it reports `disconnected`, retries `open` every `retryInterval`, and reports
/// `connected` when the device is back. Writes while disconnected fail at once.
public final class LinkRunner: Sendable {
    public let name: String
    private struct State {
        var link: (any ByteLink)?
        var closed = false
    }
    private let state: Protected<State>
    private let finished = Atomic<Bool>(false)

    public init(
        name: String, retryInterval: Double = 0.25,
        open: @escaping @Sendable () throws(LinkError) -> any ByteLink,
        onBytes: @escaping @Sendable ([UInt8]) -> Void,
        onEvent: @escaping @Sendable (LinkEvent) -> Void = { _ in }
    ) throws(LinkError) {
        self.name = name
        state = Protected(State(link: try open()))
        let thread = Thread { [weak self] in
            while let runner = self {
                if runner.state.withLock({ $0.closed }) { break }
                guard let link = runner.state.withLock({ $0.link }) else {
                    Thread.sleep(forTimeInterval: retryInterval)
                    if let reopened = try? open() {
                        runner.state.withLock { $0.link = reopened }
                        onEvent(.connected(runner.name))
                    }
                    continue
                }
                do {
                    let bytes = try link.read(timeout: 0.05)
                    if !bytes.isEmpty { onBytes(bytes) }
                } catch {
                    link.close()
                    runner.state.withLock { $0.link = nil }
                    onEvent(.disconnected(runner.name))
                }
            }
            self?.finished.store(true, ordering: .releasing)
        }
        thread.name = "opendock.link"
        thread.start()
    }

    public var isConnected: Bool { state.withLock { $0.link != nil } }

    public func send(_ bytes: [UInt8]) throws(LinkError) {
        guard let link = state.withLock({ $0.link }) else { throw .disconnected(name) }
        try link.write(bytes)
    }

    /// Closes the link and ends the reader thread.
    public func close() {
        let link = state.withLock { state -> (any ByteLink)? in
            state.closed = true
            defer { state.link = nil }
            return state.link
        }
        link?.close()
    }

    deinit { close() }
}

extension LinkRunner {
    /// Sends `request` and waits up to `seconds` for `answered()`; when the device stays silent
    /// or the send fails, closes the link and throws, so a refused device leaves nothing open.
    public func handshake(_ request: [UInt8], what: String, seconds: Double = 2, answered: () -> Bool) throws(LinkError)
    {
        do throws(LinkError) {
            try send(request)
            guard waitFor(seconds: seconds, until: answered) else { throw LinkError.noAnswer(name, what: what) }
        } catch {
            close()
            throw error
        }
    }
}
