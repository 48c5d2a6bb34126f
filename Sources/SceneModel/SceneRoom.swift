import Foundation

/// The room a generated scene's sound is heard in: a shoebox with a reverberation time, the
/// microphone pair fixed in it at the gimbal's pivot (looking along +y at yaw 0), the noises in
/// it, and a diffuse floor. People stand `ScenePerson.distance` metres from the pair, their
/// mouths `ScenePerson.mouthHeight` above the floor.
public struct SceneRoom: Sendable, Hashable {
    public var size: RoomPoint
    public var reverberationTime: Double
    /// The centre of the microphone pair.
    public var microphones: RoomPoint
    public var noises: [SceneNoise]
    /// Noise from everywhere at once (ventilation, the building), dB against the speech.
    public var diffuseLevel: Double

    public init(
        size: RoomPoint, reverberationTime: Double, microphones: RoomPoint, noises: [SceneNoise] = [],
        diffuseLevel: Double = -45
    ) {
        self.size = size
        self.reverberationTime = reverberationTime
        self.microphones = microphones
        self.noises = noises
        self.diffuseLevel = diffuseLevel
    }

    /// Where a sound at `yaw` degrees (from the pair), `distance` metres away, `height` up, is.
    public func position(yawDegrees yaw: Double, distance: Double, height: Double) -> RoomPoint {
        microphones.toward(yaw: yaw * .pi / 180, distance: distance, height: height)
    }
}

/// A noise source in a scene's room: where it is, how loud against the speech (dB: the ratio of
/// its power to the speech's at the microphones), and when it sounds. A cough or a laugh may
/// come from a person (`person`), from where they are.
public struct SceneNoise: Sendable, Hashable {
    public var kind: NoiseKind
    public var yaw: Double
    public var distance: Double
    public var height: Double
    public var level: Double
    /// When a stationary source runs (empty: always) or typing goes on.
    public var spans: [TimeSpan]
    /// When a transient happens.
    public var times: [Double]
    /// The person a cough or laugh is theirs, placed where they are then; nil for machines.
    public var person: Int?

    public init(
        kind: NoiseKind, yaw: Double = 0, distance: Double = 2, height: Double = 1, level: Double,
        spans: [TimeSpan] = [], times: [Double] = [], person: Int? = nil
    ) {
        self.kind = kind
        self.yaw = yaw
        self.distance = distance
        self.height = height
        self.level = level
        self.spans = spans
        self.times = times
        self.person = person
    }
}

/// Real recorded speech for a generated scene: a mono recording of a conversation and its turn
/// labels (RTTM), each labelled speaker voiced by one of the scene's people. The people's
/// `speaking` spans are the labels themselves.
public struct RecordedSpeech: Sendable, Hashable {
    public var path: String
    public var turns: [Turn]

    public struct Turn: Sendable, Hashable {
        public var person: Int
        public var span: TimeSpan

        public init(person: Int, span: TimeSpan) {
            self.person = person
            self.span = span
        }
    }

    public init(path: String, turns: [Turn]) {
        self.path = path
        self.turns = turns
    }
}
