import Audio
import DockCore
import Foundation
import Tracking

/// Automatic framing by who speaks: the microphones' voice activity and direction become each
/// person's speakingConfidence (`SpeakerEvidence`), and the policy (`SpeakerSelectionPolicy`)
/// turns that into whom to frame, the selector's choice being the fallback. Evidence and policy
/// work on seats (`Seats`): people out of view keep theirs, so a voice from there turns the head
/// to where they sat, and two who trade turns can be framed together before both are in view.
package struct SpeakerFollower {
    private var analyzer: SpeechAnalyzer
    private var evidence = SpeakerEvidence()
    private(set) var policy: SpeakerSelectionPolicy
    let array: MicrophoneArray
    /// When speech was last heard: lips are only read while it is about.
    private(set) var lastSpeech: MonotonicInstant?
    private var seats = Seats()
    private var search: UnseenVoiceSearch
    /// Whether the pair is wired as configured, from lips and the sound's side.
    private(set) var channelOrder = ChannelOrderCheck()
    /// Its line, once, when it finds the pair swapped; taken by whoever reports it.
    private var channelOrderLine: String?

    /// Follows a whole recording.
    package init(clip: AudioClip, array: MicrophoneArray, policy: SpeakerPolicyConfiguration) throws(AudioError) {
        try self.init(analyzer: SpeechAnalyzer(clip: clip, array: array), policy: policy)
    }

    /// Follows a live capture: `hear` its blocks as they come.
    package init(analyzer: SpeechAnalyzer, policy: SpeakerPolicyConfiguration) {
        self.analyzer = analyzer
        array = analyzer.array
        self.policy = SpeakerSelectionPolicy(configuration: policy)
        search = UnseenVoiceSearch(spread: evidence.directionSpread, reach: evidence.attributionReach)
    }

    mutating func hear(_ blocks: [AudioBlock]) {
        for block in blocks { analyzer.append(block) }
    }

    func heardSpeech(within seconds: Double, of now: MonotonicInstant) -> Bool {
        lastSpeech.map { now.seconds(since: $0) <= seconds } ?? false
    }

    /// Times the live sound did not continue (lost samples, clock jumps).
    var audioRestarts: Int { analyzer.restarts }

    /// Folds in the audio up to `now` and returns whom to frame (one person or a group), each
    /// present person's speakingConfidence, and where to point when the framing is not (yet) of
    /// people in view: a seat out of view, a group part of which is out of view, an unseen voice.
    /// Bearings are in the room's frame: the head's yaw plus the angle in the view.
    mutating func choose(
        from subjects: [TrackedSubject], fallback: TrackedSubject?, camera: CameraInformation,
        yaw: Double, lips: [UUID: Double] = [:], at now: MonotonicInstant
    ) -> (chosen: [TrackedSubject], speaking: [UUID: Double], sound: NormalizedRect?) {
        let coordinates = ImageCoordinates(size: camera.referenceDimensions)
        let k = camera.intrinsics
        let halfField = atan(k.cx / k.fx)
        let people = subjects.filter { $0.kind != .object }.map { subject -> (uuid: UUID, bearing: Double) in
            let x = coordinates.pixels(x: subject.rect.midX, y: subject.rect.midY).x
            return (subject.uuid, yaw + atan((x - k.cx) / k.fx))
        }
        seats.update(people: people, viewCentre: yaw, halfField: halfField, at: now)
        let seated = people.compactMap { person in
            seats.seat(of: person.uuid).map { (uuid: $0.id, angle: person.bearing) }
        }
        let away = seats.empty.map { (uuid: $0.id, angle: $0.bearing) }
        let candidates = seated + away
        func seatID(_ track: UUID) -> UUID? { seats.seat(of: track)?.id }
        let hidden = Set(subjects.filter { $0.consecutiveMisses > 0 }.compactMap { seatID($0.uuid) } + away.map(\.uuid))
        let seatLips = Dictionary(lips.compactMap { track, level in seatID(track).map { ($0, level) } }) { a, _ in a }
        for window in analyzer.windows(until: now) {
            // Microphones on the camera hear relative to the view; fixed ones, in the room.
            let bearing = window.direction.map { array.mounting == .room ? $0 : yaw + $0 }
            evidence.update(
                speech: window.isSpeech, direction: bearing, coherence: window.coherence, people: candidates,
                lips: seatLips, hidden: hidden, seconds: analyzer.windowSeconds)
            search.hear(
                speech: window.isSpeech, voiced: window.voiced, bearing: bearing,
                clear: (window.coherence ?? 0) >= evidence.minimumCoherence, attributed: !evidence.attributed.isEmpty,
                at: window.time, seconds: analyzer.windowSeconds)
            if window.isSpeech { lastSpeech = window.time }
            if window.isSpeech, window.voiced, let heard = window.direction,
                (window.coherence ?? 0) >= evidence.minimumCoherence
            {
                checkChannelOrder(heard: heard, people: people, lips: lips, yaw: yaw, at: window.time)
            }
        }
        let speakingSeats = Dictionary(candidates.map { ($0.uuid, evidence.speakingConfidence($0.uuid) ?? 0) }) {
            a, _ in a
        }
        let seatsNow = seats
        let fits: (Set<UUID>) -> Bool = { ids in
            let bearings = ids.compactMap { seatsNow.seat(id: $0)?.bearing }
            guard let low = bearings.min(), let high = bearings.max() else { return true }
            // The outermost faces' centres inside the view's middle 85 %, with room for half a face.
            return high - low <= 1.7 * halfField - 0.05
        }
        let ids = policy.update(
            at: now, speaking: speakingSeats, uttered: evidence.utterances,
            fallback: fallback.flatMap { seatID($0.uuid) }, fits: fits, share: evidence.recentShare,
            unseen: Set(away.map(\.uuid)))
        let framedSeats = ids.compactMap { seats.seat(id: $0) }
        let chosen = framedSeats.compactMap { seat in subjects.first { $0.uuid == seat.occupant } }
        let speaking = Dictionary(people.map { ($0.uuid, seatID($0.uuid).flatMap { speakingSeats[$0] } ?? 0) }) {
            a, _ in a
        }
        // Someone framed is out of view: turn to their seat (with the rest of the group).
        if framedSeats.contains(where: { $0.occupant == nil }), policy.followsSpeech {
            search.stop()
            let bearings = framedSeats.map(\.bearing)
            let target = lookTarget(from: bearings.min()!, to: bearings.max()!, camera: camera, yaw: yaw)
            return (chosen, speaking, target)
        }
        let chosenBearings = policy.followsSpeech ? framedSeats.map(\.bearing) : []
        let sound = search.direction(
            viewCentre: yaw, halfField: halfField, framedHeard: policy.framedHeard, framed: chosenBearings, at: now
        ).map { lookTarget(from: $0, to: $0, camera: camera, yaw: yaw) }
        return (sound != nil ? [] : chosen.isEmpty ? (fallback.map { [$0] } ?? []) : chosen, speaking, sound)
    }

    /// One window's evidence on the pair's wiring: only while exactly one person's lips move.
    private mutating func checkChannelOrder(
        heard: Double, people: [(uuid: UUID, bearing: Double)], lips: [UUID: Double], yaw: Double,
        at time: MonotonicInstant
    ) {
        let moving = people.filter { (lips[$0.uuid] ?? 0) >= evidence.lipThreshold }
        let stirring = people.filter { (lips[$0.uuid] ?? 0) >= evidence.lipThreshold / 2 }
        guard moving.count == 1, stirring.count == 1 else { return }
        // In the microphones' own frame: the room's for a fixed pair, the view's for one on the camera.
        let talker = array.mounting == .room ? moving[0].bearing : moving[0].bearing - yaw
        guard channelOrder.observe(sound: heard, talker: talker, at: time.seconds(since: .zero)) != nil else { return }
        let order = array.order
        let other: MicrophoneArray.ChannelOrder = order == .leftRight ? .rightLeft : .leftRight
        channelOrderLine = channelOrder.finding(order: order.rawValue, other: other.rawValue)
    }

    /// The line saying the pair is wired the other way round, once.
    mutating func takeChannelOrderLine() -> String? {
        defer { channelOrderLine = nil }
        return channelOrderLine
    }

    /// A target spanning the bearings `low`…`high` (one bearing: a small box), at mid-height,
    /// held inside the view so the head turns toward what lies outside it.
    private func lookTarget(from low: Double, to high: Double, camera: CameraInformation, yaw: Double)
        -> NormalizedRect
    {
        let k = camera.intrinsics
        let halfField = atan(k.cx / k.fx)
        func column(_ bearing: Double) -> Double {
            k.cx + k.fx * tan(max(-0.85 * halfField, min(0.85 * halfField, bearing - yaw)))
        }
        let size = camera.referenceDimensions
        let left = column(low)
        let right = column(high)
        let width = max(0.05 * Double(size.width), right - left)
        let height = 0.1 * Double(size.height)
        // Through the one pixel ↔ unit converter.
        return ImageCoordinates(size: size).normalized(
            PixelRect(x: (left + right) / 2 - width / 2, y: k.cy - height / 2, width: width, height: height))
    }
}
