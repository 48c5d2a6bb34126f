import Foundation

/// The process's own memory and CPU use, from the kernel.
public enum ProcessResources {
    /// Resident set size now, bytes (from /proc/self/statm; 0 when unreadable).
    public static func residentBytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The largest resident set size so far, bytes: VmHWM from /proc/self/status. (getrusage's
    /// ru_maxrss is kept across exec, so a child started by a large parent reports the parent's.)
    public static func peakResidentBytes() -> Double {
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) {
            return kilobytes * 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) * 1024
    }
}
