import DockCore
import Foundation

/// What the slow detectors found in one frame, delivered after that frame: its stamp, so the
/// tracker folds them in at the time they were seen, and the kinds that were looked for.
public struct LateDetections: Sendable {
    public var stamp: FrameStamp
    public var detections: [Detection]
    public var searched: Set<ObservationKind>
    public var errors: [DetectorError]
}

/// Runs the slow detectors (bodies, objects: 30–45 ms here against 5 ms for faces) on a thread
/// of their own, one frame at a time, so they never hold up a frame or a `track()` call. The
/// detectors are used on this thread only once it has started.
final class SlowDetectorThread: @unchecked Sendable {
    struct Job {
        var frame: Frame
        var bodies: (any Detector)?
        var objects: (any Detector)?
    }

    private let condition = NSCondition()
    private var waiting: Job?
    private var finished: LateDetections?
    /// The stamp of the frame submitted and not yet taken back (running, or done and waiting).
    private var inFlight: FrameStamp?
    private var stopping = false
    private var running = false

    init(name: String = "opendock.slow-detectors") {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// The frame whose results are still to be taken, if any.
    var pending: FrameStamp? {
        condition.lock()
        defer { condition.unlock() }
        return inFlight
    }

    /// Hands `job` to the thread; refused (false) while an earlier frame's results are still out.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard inFlight == nil, !stopping else { return false }
        inFlight = job.frame.stamp
        waiting = job
        condition.broadcast()
        return true
    }

    /// The results, if they are ready (`wait`: once they are), and the thread free again.
    func take(wait: Bool) -> LateDetections? {
        condition.lock()
        defer { condition.unlock() }
        while wait, inFlight != nil, finished == nil, !stopping { condition.wait() }
        guard let result = finished else { return nil }
        finished = nil
        inFlight = nil
        return result
    }

    /// Returns once no frame is being worked on: a run that ends leaves no detector running
    /// (a process that exits under a running OpenCV pass can crash in its teardown).
    func drain() {
        condition.lock()
        defer { condition.unlock() }
        while waiting != nil || running { condition.wait() }
    }

    /// Lets the thread end after the frame in progress.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while waiting == nil, !stopping { condition.wait() }
            guard !stopping, let job = waiting else {
                waiting = nil
                condition.broadcast()
                condition.unlock()
                return
            }
            waiting = nil
            running = true
            condition.unlock()
            let result = Self.run(job)
            condition.lock()
            finished = result
            running = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// A detector that fails inside OpenCV loses its part, reported; the other's results stay.
    static func run(_ job: Job) -> LateDetections {
        var result = LateDetections(stamp: job.frame.stamp, detections: [], searched: [], errors: [])
        func run(_ detector: any Detector) -> [Detection] {
            do { return try detector.detect(job.frame) } catch {
                result.errors.append(error)
                return []
            }
        }
        if let bodies = job.bodies {
            result.detections += run(bodies)
            result.searched.insert(.humanBody)
        }
        if let objects = job.objects {
            // A detector that finds both (YOLOX) reports its people as bodies; keep those only
            // when no body detector ran on this frame.
            result.detections += run(objects).filter { job.bodies == nil || $0.kind != .humanBody }
            result.searched.insert(.object)
            if job.bodies == nil { result.searched.insert(.humanBody) }
        }
        return result
    }
}
