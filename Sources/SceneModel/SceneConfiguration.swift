import DockCore
import Foundation

/// A stretch of media time, seconds, start inclusive and end exclusive.
public struct TimeSpan: Sendable, Hashable {
    public var start: Double
    public var end: Double

    public init(_ start: Double, _ end: Double) {
        self.start = start
        self.end = end
    }

    public func contains(_ time: Double) -> Bool { time >= start && time < end }
}

/// One person in a generated scene: the real portrait (or a real talking face) moving along a script.
public struct ScenePerson: Sendable, Hashable {
    public var id: Int
    public var script: SceneScript
    /// Height of the face in world pixels (smaller = farther away).
    public var faceHeight: Double
    /// Mirrored and re-lit copies of the portrait tell people apart.
    public var mirrored: Bool
    public var brightness: Double
    /// When the person shows the back of the head.
    public var turnedAway: [TimeSpan]
    /// When the person speaks.
    public var speaking: [TimeSpan]
    /// A real talking face (the carphone clip) instead of the still portrait: the lips move
    /// while the person speaks.
    public var talking: Bool
    /// How far from the microphones the person is (metres) and how high their mouth (metres
    /// above the floor): where their voice comes from in a scene with a room.
    public var distance: Double = 1.7
    public var mouthHeight: Double = 1.2
    /// The face's height over time, (seconds, world pixels) keyframes, linear between: a person
    /// walking toward the camera or away. Empty = `faceHeight` throughout.
    public var faceHeights: [FaceHeightKey] = []

    public init(
        id: Int, script: SceneScript, faceHeight: Double = 120, mirrored: Bool = false, brightness: Double = 1,
        turnedAway: [TimeSpan] = [], speaking: [TimeSpan] = [], talking: Bool = false
    ) {
        self.id = id
        self.script = script
        self.faceHeight = faceHeight
        self.mirrored = mirrored
        self.brightness = brightness
        self.turnedAway = turnedAway
        self.speaking = speaking
        self.talking = talking
    }
}

/// A face's height at a moment of a scene.
public struct FaceHeightKey: Sendable, Hashable {
    public var time: Double
    public var height: Double

    public init(time: Double, height: Double) {
        self.time = time
        self.height = height
    }
}

extension ScenePerson {
    /// The face's height in world pixels at `time`.
    public func faceHeight(at time: Double) -> Double {
        interpolate(faceHeights, at: time, time: \.time, value: \.height) ?? faceHeight
    }
}

/// A floor-to-ceiling pillar in front of everyone, at a world yaw (degrees), `width` degrees wide.
public struct SceneOccluder: Sendable, Hashable {
    public var yaw: Double
    public var width: Double

    public init(yaw: Double, width: Double) {
        self.yaw = yaw
        self.width = width
    }
}

/// Everything a generated scene is made of. Frames and ground truth are pure functions of it.
public struct SceneConfiguration: Sendable, Hashable {
    public var worldSize = PixelSize(width: 3200, height: 1200)
    public var worldHorizontalFieldOfView = 110.0  // degrees
    public var frameRate = 30.0
    public var people = [ScenePerson(id: 1, script: .walk)]
    public var occluders: [SceneOccluder] = []
    /// Scene-wide light level over time: (seconds, gain) keyframes, linear between; empty = 1.
    public var lighting: [(time: Double, gain: Double)] = []
    /// Blur each person along their motion over half a frame period, as a 1/60 s exposure would.
    public var motionBlur = false
    /// The camera compresses every view as JPEG at this quality (1...100).
    public var jpegQuality: Int?
    /// The camera's sensor noise, standard deviation in gray levels, repeatable per frame and seed.
    public var noiseSigma = 0.0
    public var seed: UInt64 = 1
    /// Length in seconds; nil = until the last person's script ends.
    public var duration: Double?
    /// Start again after the last frame, for ever (media time keeps increasing): soak runs.
    public var loops = false
    /// The room the sound is heard in (reverberation, noises); nil: anechoic, faint hiss.
    public var room: SceneRoom?
    /// Real recorded speech instead of synthesized voices; the people's `speaking` spans are its turns.
    public var recordedSpeech: RecordedSpeech?

    public init() {}

    /// The first person's script (the demo has one person).
    public var script: SceneScript {
        get { people[0].script }
        set { people[0].script = newValue }
    }

    public var faceHeight: Double {
        get { people[0].faceHeight }
        set { people[0].faceHeight = newValue }
    }

    public var resolvedDuration: Double { duration ?? people.map(\.script.duration).max() ?? 0 }

    public func lightingGain(at time: Double) -> Double {
        interpolate(lighting, at: time, time: \.time, value: \.gain) ?? 1
    }

    public static func == (a: SceneConfiguration, b: SceneConfiguration) -> Bool {
        a.worldSize == b.worldSize && a.worldHorizontalFieldOfView == b.worldHorizontalFieldOfView
            && a.frameRate == b.frameRate
            && a.people == b.people && a.occluders == b.occluders && a.lighting.map(\.time) == b.lighting.map(\.time)
            && a.lighting.map(\.gain) == b.lighting.map(\.gain) && a.motionBlur == b.motionBlur
            && a.jpegQuality == b.jpegQuality
            && a.noiseSigma == b.noiseSigma && a.seed == b.seed && a.duration == b.duration && a.loops == b.loops
            && a.room == b.room && a.recordedSpeech == b.recordedSpeech
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(people)
        hasher.combine(seed)
    }
}
