import Glibc

/// What `poll` waits for and reports.
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))

    /// Hang-up, error or a closed descriptor: nothing more will come.
    public var isBroken: Bool { !intersection([.hangUp, .error, .invalid]).isEmpty }
}

/// An open file descriptor and the calls OpenDock makes on it (serial ports, sockets, input
/// devices): each returns its result or throws its `Errno`, and a call interrupted by a signal
/// is made again (`retryingOnInterrupt`). V4L2 devices go through `VideoDeviceSystem`, which
/// tests replace with a scripted device.
public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static func open(_ path: String, _ flags: Int32) throws(Errno) -> FileDescriptor {
        try FileDescriptor(rawValue: retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC) }.get())
    }

    /// Creates `path` (or empties it) for writing, readable by all, writable by its owner.
    public static func create(_ path: String) throws(Errno) -> FileDescriptor {
        try FileDescriptor(
            rawValue: retryingOnInterrupt { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }.get())
    }

    /// Removes the file at `path` (a recording's oldest part).
    public static func removeFile(_ path: String) throws(Errno) {
        _ = try retryingOnInterrupt { Glibc.unlink(path) }.get()
    }

    /// A new socket (`SOCK_CLOEXEC` added).
    public static func socket(_ domain: Int32, _ type: Int32, _ protocol: Int32 = 0) throws(Errno) -> FileDescriptor {
        try FileDescriptor(
            rawValue: retryingOnInterrupt { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`) }
                .get())
    }

    /// Connects a socket. Not made again after EINTR: the connection goes on in the kernel, and
    /// a second call would only say so (EALREADY); an interrupted connect is reported.
    public func connect(to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno) {
        guard Glibc.connect(rawValue, address, length) == 0 else { throw Errno.current }
    }

    /// Binds a socket to `address` and listens with room for `backlog` waiting connections.
    public func listen(at address: UnsafePointer<sockaddr>, length: socklen_t, backlog: Int32 = 64) throws(Errno) {
        guard Glibc.bind(rawValue, address, length) == 0, Glibc.listen(rawValue, backlog) == 0 else {
            throw Errno.current
        }
    }

    /// Reads and writes return at once (EAGAIN) instead of waiting.
    public func setNonBlocking() throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFL) }.get()
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }.get()
    }

    /// Closes it; not retried on EINTR (on Linux the descriptor is gone either way).
    public func close() { _ = Glibc.close(rawValue) }

    /// Reads what is there, up to the buffer's size; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes what it can of `bytes`; the count written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }.get()
    }

    /// Sends on a socket; MSG_NOSIGNAL always, so a peer gone is an EPIPE, not a SIGPIPE.
    public func send(_ bytes: UnsafeRawBufferPointer, flags: Int32 = 0) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.send(rawValue, bytes.baseAddress, bytes.count, flags | Int32(MSG_NOSIGNAL)) }
            .get()
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.recv(rawValue, buffer.baseAddress, buffer.count, flags) }.get()
    }

    /// `read(into:)` into an array's storage.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { Glibc.read(rawValue, bytes.baseAddress, bytes.count) }
        }.get()
    }

    /// `write(_:)` of an array's bytes.
    public func write(_ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { buffer in
            retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
        }.get()
    }

    /// Writes all of `bytes`, however many calls it takes (a regular file: a full disk throws).
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var start = 0
        while start < bytes.count { start += try write(bytes[start...]) }
    }

    /// Writes `bytes` at `offset` without moving the file position (`pwrite`).
    public func writeAll(_ bytes: [UInt8], at offset: Int64) throws(Errno) {
        var start = 0
        while start < bytes.count {
            start += try bytes[start...].withUnsafeBytes { buffer in
                retryingOnInterrupt {
                    Glibc.pwrite(rawValue, buffer.baseAddress, buffer.count, off_t(offset) + off_t(start))
                }
            }.get()
        }
    }

    /// `send(_:)` of an array's bytes.
    public func send(_ bytes: ArraySlice<UInt8>, flags: Int32 = 0) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { buffer in
            retryingOnInterrupt { Glibc.send(rawValue, buffer.baseAddress, buffer.count, flags | Int32(MSG_NOSIGNAL)) }
        }.get()
    }

    /// Sends one datagram to `address` (an unconnected socket).
    public func send(_ bytes: ArraySlice<UInt8>, to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno)
        -> Int
    {
        try bytes.withUnsafeBytes { buffer in
            retryingOnInterrupt {
                Glibc.sendto(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), address, length)
            }
        }.get()
    }

    /// `receive(into:)` into an array's storage.
    public func receive(into buffer: inout [UInt8], flags: Int32 = 0) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { Glibc.recv(rawValue, bytes.baseAddress, bytes.count, flags) }
        }.get()
    }

    /// Waits up to `timeout` seconds (nil: for ever) for `events`; the events that happened,
    /// empty when the time ran out. An interrupted wait is resumed with the time left.
    public func poll(for events: PollEvents, timeout: Double?) throws(Errno) -> PollEvents {
        let deadline = timeout.map { Self.now() + max(0, $0) }
        while true {
            let milliseconds = deadline.map { Int32(max(0, ($0 - Self.now()) * 1000).rounded(.up)) } ?? -1
            var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
            let ready = Glibc.poll(&entry, 1, milliseconds)
            if ready > 0 { return PollEvents(rawValue: entry.revents) }
            if ready == 0 { return [] }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
