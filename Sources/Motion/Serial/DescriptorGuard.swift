import DockCore
import Glibc
import Synchronization

/// Guards a file descriptor shared by threads: any number of calls may use it at once (a reader
/// polling while a writer writes), and closing waits until none is using it. Without this, a
/// close from one thread can free the number while another thread's read is about to use it,
/// and the number, reused by the next `open`, reads someone else's file.
public final class DescriptorGuard: @unchecked Sendable {
    private var lock = pthread_rwlock_t()
    private var fd: FileDescriptor?
    /// Set first by `close`, so that new calls stop taking the lock: glibc's rwlock lets new
    /// readers in ahead of a waiting writer, and a busy reader loop would starve `close`.
    private let closing = Atomic<Bool>(false)

    public init(_ fd: FileDescriptor) {
        self.fd = fd
        pthread_rwlock_init(&lock, nil)
    }

    deinit {
        close()
        pthread_rwlock_destroy(&lock)
    }

    /// Runs `body` with the descriptor (nil once closed); closing waits for it to return.
    public func use<R, E: Error>(_ body: (FileDescriptor?) throws(E) -> R) throws(E) -> R {
        if closing.load(ordering: .acquiring) { return try body(nil) }
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return try body(fd)
    }

    public func close() {
        closing.store(true, ordering: .releasing)
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        fd?.close()
        fd = nil
    }
}
