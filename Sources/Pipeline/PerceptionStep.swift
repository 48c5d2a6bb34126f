import Audio
import DockCore
import Foundation
import Perception
import Tracking

/// What the perception step made of one frame.
package struct FramePerception {
    package var frame: Frame
    package var camera: CameraInformation
    /// The head's pose when the frame was taken (zero when no rig knows it).
    package var pose: Vector3D
    /// This frame's faces, and the bodies and objects of an earlier frame delivered with it.
    package var detections: [Detection]
    package var detectorFailures: Int
    /// Whether the body detector was asked to run on this frame.
    package var bodiesAsked: Bool
    /// Seconds spent waiting for the slow detectors (lock-step only), not the frame's own work.
    package var waitedForLate: Double
    /// What digital framing shows of the frame (unit rect, lower-left origin), when it is on.
    package var crop: NormalizedRect?
    package var subjects: [TrackedSubject]
    /// The selector's choice (a client's lock, else the most salient subject).
    package var selected: TrackedSubject?
    /// Whom to frame: the selector's choice, or the speakers' (one person or a group).
    package var framed: [TrackedSubject]
    package var speaking: [UUID: Double]
    /// Someone talking where nobody is tracked: the head turns towards the voice.
    package var sound: NormalizedRect?
    /// Someone tracked was heard speaking (speakingConfidence over the policy's threshold).
    package var heardSpeaker: Bool
    /// The tracker's confirmed face tracks (for identity metrics).
    package var faceTracks: [(uuid: UUID, rect: NormalizedRect)]
}

/// Where sound comes from: live microphones, or a generated scene heard by microphones on the
/// camera (rendered for the head's yaw). A recording's sound is analysed whole and needs none.
package protocol AudioInput: AnyObject {
    /// The blocks heard up to `now`, with the head at `yaw`.
    func blocks(until now: MonotonicInstant, yaw: Double) -> [AudioBlock]
    /// Why the sound stopped, once it has (a device that went away).
    var endedReason: String? { get }
    /// Blocks received and lost behind the reader, for the summary (nil: not a live device).
    var blockCounts: (received: Int, dropped: Int)? { get }
    /// What is wrong with the microphone found since the last call, one line each.
    func takeProblems() -> [String]
}

/// One frame's perception: detect → observations → tracker → selection → speakers and lips →
/// saliency. Owned by one thread (the perception thread, or the lock-step loop).
final class PerceptionStep {
    let detection: DetectionStage
    private var tracker = SubjectTracker()
    private var selector = SubjectSelector()
    private let mapper = ObservationMapper()
    private(set) var follower: SpeakerFollower?
    private let lipReader: LipReader?
    let audio: (any AudioInput)?
    private let speakingThreshold: Double

    init(
        detection: DetectionStage, follower: SpeakerFollower?, lipReader: LipReader?, audio: (any AudioInput)?,
        speakingThreshold: Double
    ) {
        self.detection = detection
        self.follower = follower
        self.lipReader = lipReader
        self.audio = audio
        self.speakingThreshold = speakingThreshold
    }

    /// Perceives `frame` at `now` (its capture time in lock-step, the clock's time live). A
    /// client's lock (`locked`) wins over speaker following.
    func perceive(
        _ frame: Frame, camera: CameraInformation, locked: [UUID], now: MonotonicInstant,
        cancelled: () -> Bool
    ) -> FramePerception {
        let pose = frame.headPose ?? Vector3D()
        let found = detection.detect(frame, tracking: tracker.focus, cancelled: cancelled)
        // Bodies and objects of earlier frames first, at their own capture times; then this
        // frame's faces, which leave those kinds alone.
        for late in found.late {
            tracker.update(with: mapper.observations(from: late.detections), stamp: late.stamp, searched: late.searched)
        }
        tracker.update(
            with: mapper.observations(from: found.detections, in: frame), stamp: frame.stamp, searched: [.humanFace])
        let delivered = found.late.flatMap(\.detections)
        let subjects = tracker.confirmedSubjects
        selector.locked = locked
        let selected = selector.select(from: subjects)
        // Several subjects locked are framed together, as many of them as are tracked.
        let group = locked.count > 1 ? locked.compactMap { id in subjects.first { $0.uuid == id } } : []
        var result = FramePerception(
            frame: frame, camera: camera, pose: pose, detections: found.detections + delivered,
            detectorFailures: found.errors.count, bodiesAsked: found.plan.bodies, waitedForLate: found.waitedForLate,
            subjects: subjects,
            selected: selected,
            framed: group.count > 1 ? group : selected.map { [$0] } ?? [], speaking: [:], sound: nil,
            heardSpeaker: false,
            faceTracks: tracker.confirmedTracks.filter { $0.kind == .humanFace }.map { ($0.uuid, $0.rect) })
        listen(into: &result, locked: !locked.isEmpty, now: now)
        return result
    }

    /// Who speaks decides whom to frame in automatic mode. Under a client's lock it still
    /// says who speaks (a program choosing by `speakingConfidence` needs it), but frames nobody.
    private func listen(into result: inout FramePerception, locked: Bool, now: MonotonicInstant) {
        guard var listening = follower else { return }
        defer { follower = listening }
        if let audio { listening.hear(audio.blocks(until: now, yaw: result.pose.y)) }
        if listening.heardSpeech(within: 1, of: now) {
            lipReader?.read(result.frame, detections: result.detections, subjects: result.subjects)
        }
        let heard = listening.choose(
            from: result.subjects, fallback: result.selected, camera: result.camera, yaw: result.pose.y,
            lips: lipReader?.activity(at: result.frame.stamp.time) ?? [:], at: now)
        if let line = listening.takeChannelOrderLine() { findings.withLock { $0.append(line) } }
        result.speaking = heard.speaking
        result.heardSpeaker = heard.speaking.values.contains { $0 >= speakingThreshold }
        guard !locked else { return }
        result.framed = heard.chosen
        result.sound = heard.sound
    }

    /// What `trackingStates` publishes for this frame: every subject with its saliency and
    /// speakingConfidence.
    func assessments(of perception: FramePerception) -> [SubjectAssessment] {
        var assessments = Saliency.assess(perception.subjects, at: perception.frame.stamp.time)
        for i in assessments.indices { assessments[i].speakingConfidence = perception.speaking[assessments[i].uuid] }
        return assessments
    }

    var audioRestarts: Int { follower?.audioRestarts ?? 0 }

    /// What listening found wrong with the microphones (their wiring), for the log; any thread.
    private let findings = Protected<[String]>([])
    func takeFindings() -> [String] {
        findings.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
    }
}
