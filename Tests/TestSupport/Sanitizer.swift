import Foundation

/// Whether this test process runs under ThreadSanitizer or AddressSanitizer, and how much
/// longer a deadline should be for it. A sanitized build runs several times slower and the
/// sanitizer's run exists to find memory and thread errors; a test that also judges speed keeps
/// its check but gives it this much more time.
public enum Sanitizer {
    /// The sanitizer runtimes export their entry points to the dynamic symbol table.
    public static let isActive: Bool = [String](["__asan_init", "__tsan_init"]).contains { dlsym(nil, $0) != nil }

    /// 1 in a plain build, 5 under a sanitizer.
    public static var slowdown: Double { isActive ? 5 : 1 }
}
