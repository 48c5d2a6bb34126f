import Glibc

/// An errno value with its text: the one error type of every system call OpenDock makes.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    /// The calling thread's errno, as the last failed call left it.
    public static var current: Errno { Errno(errno) }
    public var description: String { String(cString: strerror(code)) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noDevice = Errno(ENODEV)
    public static let noDeviceOrAddress = Errno(ENXIO)
    public static let io = Errno(EIO)
    public static let permissionDenied = Errno(EACCES)
    public static let notPermitted = Errno(EPERM)
    public static let noEntry = Errno(ENOENT)
    public static let invalidArgument = Errno(EINVAL)
    public static let connectionRefused = Errno(ECONNREFUSED)
    public static let brokenPipe = Errno(EPIPE)

    /// The errors that mean the device behind a descriptor is gone (unplugged, hung up).
    public var meansDeviceGone: Bool { self == .io || self == .noDevice || self == .noDeviceOrAddress }
}

/// Runs a system call that returns -1 and sets errno on failure, again while a signal
/// interrupts it (EINTR): its result, or the errno. Every call through `FileDescriptor` comes
/// here, so EINTR is handled once, the same way everywhere.
@inlinable
public func retryingOnInterrupt<T: FixedWidthInteger>(_ call: () -> T) -> Result<T, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if error != .interrupted { return .failure(error) }
    }
}
