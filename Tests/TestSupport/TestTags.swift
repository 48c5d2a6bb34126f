import Foundation
import Testing

extension Tag {
    /// Logic alone: values in, values out, in memory.
    @Tag public static var unit: Self
    /// Through a device as the kernel presents one: a scripted V4L2 device, a pseudo-terminal,
    /// ALSA's file plugin, pipes and sockets.
    @Tag public static var device: Self
    /// Starts dockd, dockctl or an example program.
    @Tag public static var process: Self
    /// Runs the pipeline in real time, on its threads.
    @Tag public static var realTime: Self
}

extension Trait where Self == ConditionTrait {
    /// Left out by `Scripts/test --fast` (everyday work): suites that start programs, run in
    /// real time or run whole scenes. CI runs everything.
    public static var notInFastRuns: Self {
        .disabled(
            if: ProcessInfo.processInfo.environment["OPENDOCK_FAST_TESTS"] == "1",
            "Scripts/test --fast leaves this suite out")
    }
}
