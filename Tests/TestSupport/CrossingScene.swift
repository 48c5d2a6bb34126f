import DockCore

/// Detections as a face and a body detector would report two people in a room, with exact
/// ground truth: A walks left to right and B right to left, crossing mid-scene with B in front
/// (A is hidden for a third of a second: no face, no body); then B turns away from the camera
/// for 1.5 s (the face detector loses B, the body detector does not). Boxes jitter by about 2 %
/// of their size, one detection in twenty is missed, and a weak false face flickers now and then.
public struct CrossingScene {
    public struct Truth: Sendable {
        public let person: Int
        public let kind: ObservationKind
        public let rect: NormalizedRect
    }
    public struct Frame: Sendable {
        public let stamp: FrameStamp
        public let observations: [Observation]
        public let truth: [Truth]
    }

    public static let fps = 30.0
    public static let seconds = 8.0
    /// When A is behind B, and when B faces away.
    public static let hidden = 2.95..<3.45
    public static let turnedAway = 4.5..<6.0

    public let frames: [Frame]

    public init(seed: UInt64 = 7) {
        var random = SeededGenerator(seed: seed)
        var frames: [Frame] = []
        let count = Int(Self.seconds * Self.fps)
        for i in 0..<count {
            let t = Double(i) / Self.fps
            let stamp = FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: 10 + t))
            // Body boxes: 0.16 wide, 0.6 tall; the face sits at the top centre.
            let ax = 0.1 + 0.1 * t
            let bx = 0.74 - 0.1 * t
            var truth: [Truth] = []
            for (person, x, bottom) in [(0, ax, 0.25), (1, bx, 0.22)] {
                let body = NormalizedRect(x: x, y: bottom, width: 0.16, height: 0.6)
                let face = NormalizedRect(x: body.midX - 0.035, y: body.maxY - 0.13, width: 0.07, height: 0.1)
                truth.append(Truth(person: person, kind: .humanBody, rect: body))
                truth.append(Truth(person: person, kind: .humanFace, rect: face))
            }
            var observations: [Observation] = []
            for item in truth {
                if item.person == 0 && Self.hidden.contains(t) { continue }
                var confidence = Double.random(in: 0.75...0.95, using: &random)
                if item.person == 1 && item.kind == .humanFace && Self.turnedAway.contains(t) {
                    // Turning away: a weak profile for a moment, then nothing.
                    guard t < Self.turnedAway.lowerBound + 0.2 else { continue }
                    confidence = 0.3
                }
                if Double.random(in: 0..<1, using: &random) < 0.05 { continue }
                observations.append(
                    Observation(
                        identifier: observations.count, kind: item.kind,
                        rect: Self.jitter(item.rect, &random), confidence: confidence, stamp: stamp))
            }
            if i % 23 == 0 {
                let ghost = NormalizedRect(
                    x: Double.random(in: 0.1...0.9, using: &random), y: 0.1, width: 0.05, height: 0.07)
                observations.append(
                    Observation(
                        identifier: observations.count, kind: .humanFace, rect: ghost,
                        confidence: 0.35, stamp: stamp))
            }
            frames.append(Frame(stamp: stamp, observations: observations, truth: truth))
        }
        self.frames = frames
    }

    static func jitter(_ r: NormalizedRect, _ random: inout SeededGenerator) -> NormalizedRect {
        func n() -> Double { Double.random(in: -1...1, using: &random) * 0.02 }
        return NormalizedRect(
            x: r.x + n() * r.width, y: r.y + n() * r.height,
            width: r.width * (1 + n()), height: r.height * (1 + n()))
    }
}
