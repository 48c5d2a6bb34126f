import CV4L2
import DockCore
import Foundation
import Glibc

public enum PollOutcome: Sendable, Equatable {
    case readable
    case timedOut
    /// POLLHUP or POLLERR: the device is gone or broken.
    case hangUp
    case interrupted
}

/// Every call OpenDock makes to a V4L2 device goes through one of these, so tests can put a
/// scripted device behind it and fault injection can make any call fail.
public protocol VideoDeviceSystem: AnyObject, Sendable {
    func open(_ path: String) -> Result<Int32, Errno>
    func close(_ fd: Int32)
    /// 0 on success, otherwise the errno. `argument` points at the request's real struct.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno?
    func mmap(length: Int, fd: Int32, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno>
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    func poll(_ fd: Int32, timeoutMilliseconds: Int32) -> PollOutcome
    /// Capture device nodes, e.g. ["/dev/video0", "/dev/video1"].
    func deviceNodes() -> [String]
    /// Stable names (/dev/v4l/by-id/…, /dev/v4l/by-path/…) and the node each points to.
    func stableNames() -> [(name: String, node: String)]
    func exists(_ path: String) -> Bool
    /// Opens a node to write frames into (a virtual camera), without libv4l2's capture emulation.
    func openForWriting(_ path: String) -> Result<Int32, Errno>
    /// Writes bytes to an open node; the count written, which may be short.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno>
}

extension VideoDeviceSystem {
    /// Retries on EINTR, as every ioctl caller must.
    package func call(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        while true {
            let error = ioctl(fd, request, argument)
            if error != .interrupted { return error }
        }
    }

    /// `call` on a typed struct.
    package func call<T>(_ fd: Int32, _ request: UInt, _ value: inout T) -> Errno? {
        withUnsafeMutableBytes(of: &value) { call(fd, request, $0.baseAddress!) }
    }

    /// The node behind a path: stable names resolved, plain nodes as they are.
    func resolve(_ path: String) -> String {
        stableNames().first { $0.name == path }?.node ?? path
    }
}

/// The real thing: libv4l2 (with its format conversion) and the kernel.
public final class LinuxVideoDeviceSystem: VideoDeviceSystem {
    public init() {}

    public func open(_ path: String) -> Result<Int32, Errno> {
        retryingOnInterrupt { cv4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
    }

    public func close(_ fd: Int32) { _ = cv4l2_close(fd) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        cv4l2_ioctl(fd, request, argument) == 0 ? nil : .current
    }

    public func mmap(length: Int, fd: Int32, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno> {
        guard let address = cv4l2_mmap(length, fd, offset), address != cv4l2_map_failed() else {
            return .failure(.current)
        }
        return .success(address)
    }

    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = cv4l2_munmap(address, length) }

    public func poll(_ fd: Int32, timeoutMilliseconds: Int32) -> PollOutcome {
        let timeout = timeoutMilliseconds < 0 ? nil : Double(timeoutMilliseconds) / 1000
        guard let events = try? FileDescriptor(rawValue: fd).poll(for: .readable, timeout: timeout) else {
            return .hangUp
        }
        if events.isEmpty { return .timedOut }
        return events.isBroken ? .hangUp : .readable
    }

    public func deviceNodes() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { "/dev/" + $0 }
    }

    public func stableNames() -> [(name: String, node: String)] {
        var result: [(String, String)] = []
        for dir in ["/dev/v4l/by-id", "/dev/v4l/by-path"] {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() {
                let path = dir + "/" + name
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                    let node =
                        target.hasPrefix("/")
                        ? target : URL(fileURLWithPath: dir).appendingPathComponent(target).standardizedFileURL.path
                    result.append((path, node))
                }
            }
        }
        return result
    }

    public func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public func openForWriting(_ path: String) -> Result<Int32, Errno> {
        retryingOnInterrupt { Glibc.open(path, O_RDWR | O_CLOEXEC) }
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }
}
