import Audio
import DockCore
import Foundation
import Tracking

/// Automatic framing by who speaks: the microphones' voice activity and direction become each
/// person's speakingConfidence (`SpeakerEvidence`), and the policy (`SpeakerSelectionPolicy`)
/// turns that into whom to frame, the selector's choice being the fallback.
struct SpeakerFollower {
    private var analyzer: SpeechAnalyzer
    private var evidence = SpeakerEvidence()
    private(set) var policy: SpeakerSelectionPolicy
    let array: MicrophoneArray
    /// Speech from a direction where nobody is tracked (someone out of view): since when, and
    /// the directions heard.
    private var unattributedSince: MonotonicInstant?
    private var unattributed: [Double] = []
    /// When speech was last heard: lips are only read while it is about.
    private(set) var lastSpeech: MonotonicInstant?
    /// A voice nobody tracked was heard from here (radians, the array's frame): the head looks
    /// this way until someone framed is heard, or the voice there has been quiet a while.
    private var lookingToward: (direction: Double, lastHeard: MonotonicInstant)?

    /// Follows a whole recording.
    init(clip: AudioClip, array: MicrophoneArray, policy: SpeakerPolicyConfiguration) throws(AudioError) {
        try self.init(analyzer: SpeechAnalyzer(clip: clip, array: array), policy: policy)
    }

    /// Follows a live capture: `hear` its blocks as they come.
    init(analyzer: SpeechAnalyzer, policy: SpeakerPolicyConfiguration) {
        self.analyzer = analyzer
        array = analyzer.array
        self.policy = SpeakerSelectionPolicy(configuration: policy)
    }

    mutating func hear(_ blocks: [AudioBlock]) {
        for block in blocks { analyzer.append(block) }
    }

    func heardSpeech(within seconds: Double, of now: MonotonicInstant) -> Bool {
        lastSpeech.map { now.seconds(since: $0) <= seconds } ?? false
    }

    /// Times the live sound did not continue (lost samples, clock jumps).
    var audioRestarts: Int { analyzer.restarts }

    /// Folds in the audio up to `now` and returns whom to frame (one person or a group; nobody
    /// while the head turns to an unseen voice) and each present person's speakingConfidence.
    /// People's angles: relative to the view for microphones on the camera, plus the gimbal's
    /// yaw for microphones fixed in the room.
    mutating func choose(
        from subjects: [TrackedSubject], fallback: TrackedSubject?, camera: CameraInformation,
        yaw: Double, lips: [UUID: Double] = [:], at now: MonotonicInstant
    ) -> (chosen: [TrackedSubject], speaking: [UUID: Double], sound: NormalizedRect?) {
        let coordinates = ImageCoordinates(size: camera.referenceDimensions)
        let k = camera.intrinsics
        let people = subjects.filter { $0.kind != .object }.map { subject -> (uuid: UUID, angle: Double) in
            let x = coordinates.pixels(x: subject.rect.midX, y: subject.rect.midY).x
            let inView = atan((x - k.cx) / k.fx)
            return (subject.uuid, array.mounting == .room ? yaw + inView : inView)
        }
        let hidden = Set(subjects.filter { $0.consecutiveMisses > 0 }.map(\.uuid))
        for window in analyzer.windows(until: now) {
            evidence.update(
                speech: window.isSpeech, direction: window.direction, coherence: window.coherence, people: people,
                lips: lips, hidden: hidden, seconds: analyzer.windowSeconds)
            noteUnattributed(window)
            if window.isSpeech { lastSpeech = window.time }
        }
        let speaking = Dictionary(people.map { ($0.uuid, evidence.speakingConfidence($0.uuid) ?? 0) }) { a, _ in a }
        let uuids = policy.update(
            at: now, speaking: speaking, uttered: evidence.utterances.all, fallback: fallback?.uuid)
        let chosen = uuids.compactMap { uuid in subjects.first { $0.uuid == uuid } }
        let chosenAngles = people.filter { person in chosen.contains { $0.uuid == person.uuid } && policy.followsSpeech
        }.map(\.angle)
        let sound = soundTarget(camera: camera, yaw: yaw, chosenAngles: chosenAngles, at: now)
        return (sound != nil ? [] : chosen.isEmpty ? (fallback.map { [$0] } ?? []) : chosen, speaking, sound)
    }

    /// Speech given to nobody tracked (see `SpeakerEvidence.attributed`), heard for longer than a cough.
    private mutating func noteUnattributed(_ window: AudioWindow) {
        if window.isSpeech, let direction = window.direction, let look = lookingToward,
            abs(direction - look.direction) < 2.5 * evidence.directionSpread
        {
            lookingToward?.lastHeard = window.time
        }
        guard window.isSpeech, let direction = window.direction, (window.coherence ?? 0) >= evidence.minimumCoherence
        else {
            if let since = unattributedSince, window.time.seconds(since: since) > 1.5 {
                unattributedSince = nil
                unattributed = []
            }
            return
        }
        if !evidence.attributed.isEmpty {
            unattributedSince = nil
            unattributed = []
            return
        }
        if unattributedSince == nil { unattributedSince = window.time }
        unattributed.append(direction)
        if unattributed.count > 50 { unattributed.removeFirst(unattributed.count - 50) }
    }

    /// Where to look for a talker nobody tracks: a small target at the sound's direction in the
    /// view (at the view's edge when it lies outside), so the head turns towards the voice and
    /// the detector can find the person. nil when speech is attributed or too brief.
    private mutating func soundTarget(
        camera: CameraInformation, yaw: Double, chosenAngles: [Double], at now: MonotonicInstant
    ) -> NormalizedRect? {
        if let since = unattributedSince, now.seconds(since: since) >= policy.configuration.confirmation,
            unattributed.count >= 5
        {
            lookingToward = (unattributed.sorted()[unattributed.count / 2], now)
        }
        if let look = lookingToward,
            policy.framedHeard || now.seconds(since: look.lastHeard) > 1.5
                || chosenAngles.contains(where: { abs($0 - look.direction) < evidence.attributionReach })
        {
            lookingToward = nil
        }
        guard let direction = lookingToward?.direction else { return nil }
        let k = camera.intrinsics
        let halfField = atan(k.cx / k.fx)
        let inView = max(-0.85 * halfField, min(0.85 * halfField, direction - (array.mounting == .room ? yaw : 0)))
        // A small box at the voice's column, mid-height, through the one pixel ↔ unit converter.
        let size = camera.referenceDimensions
        let x = k.cx + k.fx * tan(inView)
        let width = 0.05 * Double(size.width)
        let height = 0.1 * Double(size.height)
        return ImageCoordinates(size: size).normalized(
            PixelRect(x: x - width / 2, y: k.cy - height / 2, width: width, height: height))
    }
}
