import Foundation

/// The process's own memory and CPU use, from the kernel.
public enum ProcessResources {
    /// Resident set size now, bytes (VmRSS; 0 when unreadable).
    public static func residentBytes() -> Double { statusKilobytes("VmRSS:").map { $0 * 1024 } ?? 0 }

    /// A "Name:  N kB" line of /proc/self/status.
    static func statusKilobytes(_ name: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
    }

    /// The largest resident set size so far, bytes: VmHWM from /proc/self/status. (getrusage's
    /// ru_maxrss is kept across exec, so a child started by a large parent reports the parent's.)
    public static func peakResidentBytes() -> Double {
        if let kilobytes = statusKilobytes("VmHWM:") { return kilobytes * 1024 }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) * 1024
    }

    /// Threads in the process now (Threads: of /proc/self/status; 0 when unreadable).
    public static func threadCount() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") })
        else { return 0 }
        return line.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// File descriptors open now (the entries of /proc/self/fd, less the one listing it).
    public static func openDescriptorCount() -> Int {
        max(0, ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1)
    }

    /// CPU time the calling thread has used, seconds: what one stage costs, whatever else the
    /// machine is busy with.
    public static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
