/// What the computer beside the camera can carry, as one choice: how often the perception
/// takes a frame, how often the detectors run and on how many threads. `desktop` runs
/// everything on every frame of a 30 fps camera; `small`, for a Raspberry Pi–class board, takes
/// 15 frames a second (the others are left undecoded), runs OpenCV on one thread, runs bodies
/// a few times a second only while faces are not enough, on SSDLite quantized to int8.
public enum ComputerProfile: String, Sendable, CaseIterable {
    case desktop
    case small

    /// Frames a second the perception takes from a camera; nil takes every frame.
    public var perceptionRate: Double? {
        switch self {
        case .desktop: nil
        case .small: 15
        }
    }

    /// OpenCV's threads; nil leaves OpenCV's own choice (every core).
    public var openCVThreads: Int? {
        switch self {
        case .desktop: nil
        case .small: 1
        }
    }

    /// SSDLite quantized to int8: a quarter of the memory (about 16 MiB held instead of 50).
    public var quantizesBodies: Bool { self == .small }

    /// The allocator keeps little freed memory (one arena, eager trimming).
    public var limitsHeap: Bool { self == .small }

    /// The detectors' schedule.
    public var schedule: DetectionSchedule {
        var schedule = DetectionSchedule()
        if self == .small {
            // A person with no face to see (far, turned away) is looked for at the full rate;
            // everyone told by a face needs bodies only to catch a newcomer.
            schedule.bodyIntervalWithoutFaces = 0.2
            schedule.bodyIntervalWhileFacesSuffice = 1.0
        }
        return schedule
    }
}
