import DockCore
import Foundation

/// One person's truth in one closed-loop frame, as the camera on the gimbal saw it.
public struct PersonSample: Sendable, Hashable {
    public var id: Int
    /// The face in view pixels; nil when behind the camera.
    public var rect: PixelRect?
    /// Behind an occluder (present but not visible).
    public var hidden: Bool
    public var speaking: Bool
    /// Direction of the face centre from the gimbal's pivot, radians (yaw right, pitch down).
    public var yaw: Double
    public var pitch: Double

    public init(
        id: Int, rect: PixelRect?, hidden: Bool = false, speaking: Bool = false, yaw: Double = 0, pitch: Double = 0
    ) {
        self.id = id
        self.rect = rect
        self.hidden = hidden
        self.speaking = speaking
        self.yaw = yaw
        self.pitch = pitch
    }
}

/// One closed-loop frame: the truth, the gimbal and what the pipeline chose.
public struct FrameSample: Sendable, Hashable {
    public var time: Double
    /// Gimbal pose (radians) and commanded rates (rad/s).
    public var yaw: Double
    public var pitch: Double
    public var commandYaw: Double
    public var commandPitch: Double
    public var people: [PersonSample]
    /// The chosen subject in view pixels; nil = nothing chosen.
    public var selected: PixelRect?
    /// The others framed with it when a group is framed.
    public var alsoSelected: [PixelRect]
    /// Face tracks, id = the tracker's person identity.
    public var faceTracks: [IdentifiedBox]
    /// What digital framing showed of the view, in view pixels; nil = all of it.
    public var crop: PixelRect?
    /// The lens's zoom for this frame (1 = the widest, whose focal length the settings give).
    public var zoom = 1.0

    public init(
        time: Double, yaw: Double = 0, pitch: Double = 0, commandYaw: Double = 0, commandPitch: Double = 0,
        people: [PersonSample], selected: PixelRect?, alsoSelected: [PixelRect] = [], faceTracks: [IdentifiedBox] = [],
        crop: PixelRect? = nil
    ) {
        self.crop = crop
        self.alsoSelected = alsoSelected
        self.time = time
        self.yaw = yaw
        self.pitch = pitch
        self.commandYaw = commandYaw
        self.commandPitch = commandPitch
        self.people = people
        self.selected = selected
        self.faceTracks = faceTracks
    }
}

/// What a scene's figures depend on besides the frames.
public struct SceneEvaluationSettings: Sendable, Hashable {
    public var viewWidth: Double
    public var viewHeight: Double
    public var focalLength: Double
    /// Whom to frame while nobody speaks; nil = the first person.
    public var primaryID: Int?
    /// Times (s) the target jumps; each is measured as a step response of the gimbal's yaw
    /// error from the target's direction.
    public var steps: [Double]
    /// A step has settled once the yaw stays within this of its final aim (radians).
    public var settleBand: Double
    /// Commanded rates below this (rad/s) count as rest for starts and reversals.
    public var restThreshold: Double

    public init(
        viewWidth: Double, viewHeight: Double, focalLength: Double, primaryID: Int? = nil, steps: [Double] = [],
        settleBand: Double = 2.5 * .pi / 180, restThreshold: Double = 0.2 * .pi / 180
    ) {
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.focalLength = focalLength
        self.primaryID = primaryID
        self.steps = steps
        self.settleBand = settleBand
        self.restThreshold = restThreshold
    }
}

/// The closed-loop figures of one scene, computed from its frames alone, so that anyone holding
/// the trace can recompute them.
public struct SceneEvaluation: Sendable {
    public struct Step: Sendable, Hashable {
        public var time: Double
        public var settleTime: Double?
        public var overshoot: Double
    }

    public let settings: SceneEvaluationSettings
    public let samples: [FrameSample]
    /// Per frame: whom the pipeline should frame (the speaker, else the primary person).
    public let targets: [Int?]
    /// Per frame: the person the chosen subject is.
    public let chosen: [Int?]
    /// Per frame: everyone framed (more than one when a group is framed).
    public let framed: [Set<Int>]
    public let loop: LoopMetrics
    public let steps: [Step]
    /// From each end of the target being hidden to choosing it again (nil = never did).
    public let reacquireTimes: [Double?]
    /// Each time the target left the view after acquisition (its face centre outside the frame
    /// while it was not hidden behind something): seconds until it was back in view; nil = it
    /// never was.
    public let outOfViewSpells: [Double?]
    /// How far the head's yaw ended from where it started (radians), when the target was gone
    /// (hidden, or no longer in the scene) at the end: a head that gave up on a subject that left
    /// for good should be home. nil when the target is there at the end.
    public let endFromHome: Double?
    /// From the start of each new speaker's speech to the framed identity settling on them
    /// (nil = it never did while they spoke); see `SpeakerSwitches`.
    public let switchLatencies: [Double?]
    /// Share of speaking frames with the speaker chosen; nil when nobody speaks.
    public let speakerChoiceAccuracy: Double?
    /// Changes of framed identity, whatever frames lie between.
    public let switches: Int
    /// Changes of framed identity to someone who should not be framed (`SpeakerSwitches`).
    public let falseSwitches: Int
    /// The room figures: right speaker with and without a grace, the speaker in the picture,
    /// framed changes per change of speaker, time facing nobody.
    public let speakerFraming: SpeakerFraming
    public let motorStarts: Int
    /// Reversals of the commanded yaw direction.
    public let reversals: Int
    public let identity: TrackingSummary

    public init(samples: [FrameSample], settings: SceneEvaluationSettings) {
        self.settings = settings
        self.samples = samples
        let targets = samples.map { Self.target(in: $0, primaryID: settings.primaryID) }
        let chosen = samples.map(Self.chosenPerson)
        let framed = samples.map(Self.chosenPeople)
        self.targets = targets
        self.chosen = chosen
        self.framed = framed

        var loop = LoopMetrics(
            viewWidth: settings.viewWidth, viewHeight: settings.viewHeight, focalLength: settings.focalLength)
        for (index, sample) in samples.enumerated() {
            let rect = targets[index].flatMap { id in sample.people.first { $0.id == id } }?.rect
            loop.record(
                LoopSample(
                    time: sample.time, targetCenterX: rect?.midX, targetCenterY: rect?.midY,
                    targetSelected: targets[index].map { framed[index].contains($0) } ?? false, zoom: sample.zoom))
        }
        self.loop = loop

        let times = samples.map(\.time)
        steps = Self.stepResponses(samples, targets: targets, settings: settings)
        reacquireTimes = Self.reacquireTimes(samples, targets: targets, framed: framed)
        outOfViewSpells = Self.outOfViewSpells(samples, targets: targets, framed: framed, settings: settings)
        if let first = samples.first, let last = samples.last {
            let target = targets[samples.count - 1].flatMap { id in last.people.first { $0.id == id } }
            endFromHome = target == nil || target?.hidden == true ? abs(last.yaw - first.yaw) : nil
        } else {
            endFromHome = nil
        }

        // Speakers: accuracy, how fast a change of speaker is followed, and wrong changes.
        let speakers = samples.map { sample in sample.people.first { $0.speaking }?.id }
        let speaking = speakers.indices.filter { speakers[$0] != nil }
        speakerChoiceAccuracy =
            speaking.isEmpty
            ? nil
            : Double(speaking.filter { framed[$0].contains(speakers[$0]!) }.count) / Double(speaking.count)
        let switching = SpeakerSwitches(
            times: times, framed: framed, speakers: speakers, quietTargets: targets)
        switchLatencies = switching.latencies
        switches = switching.switches
        falseSwitches = switching.falseSwitches
        let view = PixelRect(x: 0, y: 0, width: settings.viewWidth, height: settings.viewHeight)
        speakerFraming = SpeakerFraming(
            times: times, framed: framed,
            speaking: samples.map { Set($0.people.filter(\.speaking).map(\.id)) },
            inPicture: samples.map { sample in
                Set(
                    sample.people.filter { person in
                        !person.hidden && person.rect.map { view.contains(x: $0.midX, y: $0.midY) } == true
                    }.map(\.id))
            })

        let moving = samples.map { max(abs($0.commandYaw), abs($0.commandPitch)) }
        motorStarts = MotionMetrics.motorStarts(moving, threshold: settings.restThreshold)
        var reversals = 0
        var direction = 0.0
        for sample in samples where abs(sample.commandYaw) > settings.restThreshold {
            let sign: Double = sample.commandYaw > 0 ? 1 : -1
            if direction != 0 && sign != direction { reversals += 1 }
            direction = sign
        }
        self.reversals = reversals

        identity = Self.identity(samples, settings: settings)
    }

    /// Step responses, each up to the next step (at most 4 s): the yaw's error from the
    /// target's direction at each instant, so a target that keeps moving after its jump (a
    /// real clip) is followed rather than compared with where it ends up.
    static func stepResponses(_ samples: [FrameSample], targets: [Int?], settings: SceneEvaluationSettings) -> [Step] {
        let times = samples.map(\.time)
        var steps: [Step] = []
        for (k, stepTime) in settings.steps.enumerated() {
            let end = min(k + 1 < settings.steps.count ? settings.steps[k + 1] : .infinity, stepTime + 4)
            let window = samples.indices.filter { times[$0] >= stepTime && times[$0] < end }
            let errors = window.compactMap { i -> (Double, Double)? in
                targets[i].flatMap { id in samples[i].people.first { $0.id == id } }.map {
                    (times[i], samples[i].yaw - $0.yaw)
                }
            }
            // A jump within twice the band is no step for the head (it may rightly not move).
            guard let first = errors.first, errors.count == window.count, abs(first.1) > 2 * settings.settleBand else {
                continue
            }
            let response = MotionMetrics.stepResponse(
                times: errors.map(\.0), values: errors.map(\.1), stepTime: stepTime,
                start: first.1, target: 0, band: settings.settleBand)
            steps.append(Step(time: stepTime, settleTime: response.settleTime, overshoot: response.overshoot))
        }
        return steps
    }

    /// From each end of the target being hidden to choosing it again (nil = never did).
    static func reacquireTimes(_ samples: [FrameSample], targets: [Int?], framed: [Set<Int>]) -> [Double?] {
        let times = samples.map(\.time)
        var reacquire: [Double?] = []
        var hiddenBefore = false
        for index in samples.indices {
            let target = targets[index]
            let hidden = target.flatMap { id in samples[index].people.first { $0.id == id } }?.hidden ?? false
            if hiddenBefore && !hidden, let target {
                let found = samples.indices[index...].first { framed[$0].contains(target) }
                reacquire.append(found.map { times[$0] - times[index] })
            }
            hiddenBefore = hidden
        }
        return reacquire
    }

    /// Spells of the target out of view after it was first framed, each until it is back in view.
    static func outOfViewSpells(
        _ samples: [FrameSample], targets: [Int?], framed: [Set<Int>], settings: SceneEvaluationSettings
    ) -> [Double?] {
        guard let acquired = samples.indices.first(where: { i in targets[i].map { framed[i].contains($0) } ?? false })
        else { return [] }
        var spells: [Double?] = []
        var leftAt: Double?
        for index in samples.indices[acquired...] {
            guard let id = targets[index], let person = samples[index].people.first(where: { $0.id == id }),
                !person.hidden
            else {
                leftAt = nil  // gone or hidden: not a spell out of view
                continue
            }
            let inView = person.rect.map {
                $0.midX >= 0 && $0.midX <= settings.viewWidth && $0.midY >= 0 && $0.midY <= settings.viewHeight
            }
            if inView == true {
                if let left = leftAt { spells.append(samples[index].time - left) }
                leftAt = nil
            } else if leftAt == nil {
                leftAt = samples[index].time
            }
        }
        if leftAt != nil { spells.append(nil) }
        return spells
    }

    /// Identity figures (IDF1, switches) of the face tracks against the people in view.
    static func identity(_ samples: [FrameSample], settings: SceneEvaluationSettings) -> TrackingSummary {
        var identity = TrackingAccuracy()
        let view = PixelRect(x: 0, y: 0, width: settings.viewWidth, height: settings.viewHeight)
        for (index, sample) in samples.enumerated() {
            let visible = sample.people.compactMap { person -> IdentifiedBox? in
                guard !person.hidden, let rect = person.rect, rect.intersectionOverUnion(view) > 0,
                    view.contains(x: rect.midX, y: rect.midY)
                else { return nil }
                return IdentifiedBox(id: person.id, rect: rect)
            }
            identity.add(frame: index, objects: visible, hypotheses: sample.faceTracks)
        }
        return identity.summary
    }

    /// How long the run lasted: every frame's period, the last one's included (a clip of 120
    /// frames at 30 fps lasts 4 s, not the 3.97 s between its first and last frame).
    public var duration: Double {
        guard samples.count > 1 else { return 0 }
        return (samples.last!.time - samples.first!.time) * Double(samples.count) / Double(samples.count - 1)
    }
    private var minutes: Double { max(duration, 1e-9) / 60 }
    public var motorStartsPerMinute: Double { Double(motorStarts) / minutes }
    public var reversalsPerMinute: Double { Double(reversals) / minutes }

    /// The speaker, else the primary person, else the first person, when present in the frame's truth.
    public static func target(in sample: FrameSample, primaryID: Int?) -> Int? {
        if let speaker = sample.people.first(where: \.speaking) { return speaker.id }
        if let primaryID { return sample.people.contains { $0.id == primaryID } ? primaryID : nil }
        return sample.people.first?.id
    }

    /// Everyone framed: the chosen subject's person and those of the rest of a group.
    public static func chosenPeople(_ sample: FrameSample) -> Set<Int> {
        var sample = sample
        var out = Set<Int>()
        for rect in [sample.selected].compactMap({ $0 }) + sample.alsoSelected {
            sample.selected = rect
            if let id = chosenPerson(sample) { out.insert(id) }
        }
        return out
    }

    /// The person whose face the chosen subject covers best: overlap first, else a face centre
    /// inside the chosen rect (a body), nearest to its top centre. Someone hidden behind a
    /// person in view is not the one framed there.
    public static func chosenPerson(_ sample: FrameSample) -> Int? {
        var seen = sample
        seen.people.removeAll(where: \.hidden)
        if seen.people.count < sample.people.count, let visible = chosenPerson(seen) { return visible }
        guard let selected = sample.selected else { return nil }
        let overlapping = sample.people.compactMap { p in p.rect.map { (p.id, $0.intersectionOverUnion(selected)) } }
            .filter { $0.1 > 0.3 }.max { $0.1 < $1.1 }
        if let overlapping { return overlapping.0 }
        let head = PixelPoint(x: selected.midX, y: selected.y + selected.height * 0.15)
        return sample.people.compactMap { p -> (Int, Double)? in
            guard let r = p.rect, selected.contains(x: r.midX, y: r.midY) else { return nil }
            return (p.id, hypot(r.midX - head.x, r.midY - head.y))
        }.min { $0.1 < $1.1 }?.0
    }
}
