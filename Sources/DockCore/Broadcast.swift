import Foundation

/// Fans values out to every subscriber: async streams for DockKit's clients, plain callbacks for
/// listeners on threads of their own (the control API's event streams). A slow stream keeps only
/// its newest values; a callback must not block.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var streams: [UUID: AsyncStream<Element>.Continuation] = [:]
        var handlers: [UUID: @Sendable (Element) -> Void] = [:]
        var finished = false
    }
    private let state = Protected(State())

    package init() {}

    /// A stream of the values yielded from now on (after `first`, when given), keeping the
    /// newest `buffer` when not read.
    package func stream(buffer: Int, first: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        if let first { continuation.yield(first) }
        let id = UUID()
        let finished = state.withLock { state in
            if !state.finished { state.streams[id] = continuation }
            return state.finished
        }
        if finished { continuation.finish() }
        // The lock's box, held strongly until the stream ends: no weak reference, whose side
        // table LeakSanitizer cannot follow while the broadcaster lives on at exit.
        continuation.onTermination = { [state] _ in state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Calls `handler` with each value yielded from now on, until `unsubscribe`.
    package func subscribe(_ handler: @escaping @Sendable (Element) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.handlers[id] = handler }
        return id
    }

    package func unsubscribe(_ id: UUID) {
        state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    }

    package var hasSubscribers: Bool { state.withLock { !$0.streams.isEmpty || !$0.handlers.isEmpty } }

    package func yield(_ value: Element) {
        let (streams, handlers) = state.withLock { (Array($0.streams.values), Array($0.handlers.values)) }
        for s in streams { s.yield(value) }
        for h in handlers { h(value) }
    }

    /// Ends every stream, and any stream asked for later.
    package func finish() {
        let streams = state.withLock { state in
            defer {
                state.streams.removeAll()
                state.finished = true
            }
            return Array(state.streams.values)
        }
        for s in streams { s.finish() }
    }
}
