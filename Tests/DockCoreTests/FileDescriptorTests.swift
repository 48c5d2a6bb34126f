import DockCore
import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.tags(.device)) struct FileDescriptorTests {
    /// A call interrupted by a signal is made again; any other failure is its errno.
    @Test func anInterruptedCallIsMadeAgain() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == .success(7) && calls == 3)
        let failed = retryingOnInterrupt { () -> Int in
            errno = EBADF
            return -1
        }
        #expect(failed == .failure(Errno(EBADF)))
        #expect(Errno(EBADF).description == "Bad file descriptor")
    }

    func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Bytes written come out of the other end; poll says when; the end of the stream reads 0.
    @Test func aPipeCarriesBytesAndItsEnd() throws {
        let (reader, writer) = try pipe()
        defer { reader.close() }
        #expect(try reader.poll(for: .readable, timeout: 0).isEmpty)
        #expect(try writer.write([1, 2, 3][...]) == 3)
        #expect(try reader.poll(for: .readable, timeout: 1).contains(.readable))
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try reader.read(into: &buffer) == 3 && buffer.prefix(3) == [1, 2, 3])
        writer.close()
        #expect(try reader.poll(for: .readable, timeout: 1).isBroken)
        #expect(try reader.read(into: &buffer) == 0)
    }

    /// A non-blocking read with nothing there is EAGAIN; a closed descriptor is EBADF.
    @Test func failuresAreErrnos() throws {
        let (reader, writer) = try pipe()
        defer { writer.close() }
        try reader.setNonBlocking()
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: Errno.wouldBlock) { try reader.read(into: &buffer) }
        reader.close()
        #expect(throws: Errno(EBADF)) { try reader.read(into: &buffer) }
    }

    /// A signal during a wait does not end it early: poll goes on with the time left.
    @Test func aSignalDoesNotCutAWaitShort() throws {
        let (reader, writer) = try pipe()
        defer {
            reader.close()
            writer.close()
        }
        // A handler without SA_RESTART, so the signal really interrupts poll (EINTR).
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let waiter = pthread_self()
        let signaller = Thread {
            for _ in 0..<3 {
                Thread.sleep(forTimeInterval: 0.05)
                pthread_kill(waiter, SIGUSR2)
            }
        }
        signaller.start()
        let start = Date()
        let events = try reader.poll(for: .readable, timeout: 0.4)
        #expect(events.isEmpty)
        #expect(Date().timeIntervalSince(start) >= 0.39)
        Thread.sleep(forTimeInterval: 0.1)
    }
}
