import DockCore
import Foundation

/// One track: a face, a body or an object followed across frames. Positions are normalized,
/// lower-left origin.
public struct TrackedSubject: Sendable, Hashable {
    /// Small integer, unique within this tracker's lifetime; used as the DockKit observation id.
    public let id: Int
    /// The identity of the person or object: random, stable while tracked, never reused. A face
    /// and a body linked as one person share it (the older track's), so the person keeps it when
    /// the face turns away and the body carries on.
    public var uuid: UUID
    public var kind: ObservationKind
    /// The detector's class for objects ("cat"); nil for faces and bodies.
    public var label: String?
    /// The filtered rect, for association across frames.
    public var rect: NormalizedRect
    /// The rect exactly as last detected. The filter lags while the camera turns (image motion
    /// is then mostly the camera's own), so motor control uses this one.
    public var observedRect: NormalizedRect
    /// Velocity of the rect's centre, unit widths/heights per second.
    public var velocityX: Double
    public var velocityY: Double
    public var faceYaw: Double?
    public var confidence: Double
    /// Stamp of the frame of the last matched observation.
    public var lastStamp: FrameStamp
    /// When the track was born.
    public let born: MonotonicInstant
    /// When this identity was first seen: the track's birth, or earlier for a person recognised
    /// as one seen before (`IdentityMemory`).
    public var identitySince: MonotonicInstant
    /// How the subject looks, averaged over the sightings where nobody overlapped it.
    public private(set) var appearance: Appearance?
    public private(set) var appearanceSamples = 0
    /// A new track is compared with the people lost lately once its appearance is known.
    var awaitsRecognition = true
    public var hits: Int
    public var consecutiveMisses: Int
    /// Reported once it has been seen often enough; stays so while it coasts.
    public var isConfirmed: Bool
    /// The track of the other half of the same person (face ↔ body), if linked.
    public var linkedID: Int?
    /// The last sightings (capture time and rect as detected), so a detector that reports late
    /// (bodies run beside the frame path) can be matched with what this track was at that time.
    public private(set) var sightings: [Sighting]
    var filter: BoxKalmanFilter

    public struct Sighting: Sendable, Hashable {
        public var time: MonotonicInstant
        public var rect: NormalizedRect
    }

    /// About a second at 30 fps: longer than any detector is late.
    static let sightingsKept = 32

    public init(id: Int, observation: Observation, stamp: FrameStamp) {
        self.id = id
        uuid = UUID()
        kind = observation.kind
        label = observation.label
        rect = observation.rect
        observedRect = observation.rect
        velocityX = 0
        velocityY = 0
        faceYaw = observation.faceYaw
        confidence = observation.confidence
        lastStamp = stamp
        born = stamp.time
        identitySince = stamp.time
        hits = 1
        consecutiveMisses = 0
        isConfirmed = false
        sightings = [Sighting(time: stamp.time, rect: observation.rect)]
        filter = BoxKalmanFilter(observation.rect, at: stamp.time)
    }

    /// The rect as detected in the frame captured at `time`, if this track was seen in it.
    public func observedRect(at time: MonotonicInstant) -> NormalizedRect? {
        sightings.last { $0.time == time }?.rect
    }

    /// The rect moved along the estimated velocity to `time`.
    public func predictedRect(at time: MonotonicInstant) -> NormalizedRect {
        filter.predicted(at: time)
    }

    /// Folds in how the subject looked; a crowded sighting (another subject overlapping) would
    /// mix two people and is left out.
    mutating func learnAppearance(from observation: Observation, crowded: Bool = false) {
        guard !crowded, let seen = observation.appearance else { return }
        appearanceSamples += 1
        appearance = appearance?.blended(with: seen, weight: max(0.1, 1 / Double(appearanceSamples))) ?? seen
    }

    mutating func correct(with observation: Observation, stamp: FrameStamp, crowded: Bool = false) {
        learnAppearance(from: observation, crowded: crowded)
        filter.correct(with: observation.rect, at: stamp.time)
        rect = filter.rect
        velocityX = filter.velocityX
        velocityY = filter.velocityY
        observedRect = observation.rect
        faceYaw = observation.faceYaw
        confidence = observation.confidence
        if let label = observation.label { self.label = label }
        lastStamp = stamp
        sightings.append(Sighting(time: stamp.time, rect: observation.rect))
        if sightings.count > Self.sightingsKept { sightings.removeFirst(sightings.count - Self.sightingsKept) }
        hits += 1
        consecutiveMisses = 0
    }
}
