import DockCore

/// Where each person is in every frame of a scene, in world pixels.
public protocol GroundTruthProvider {
    func groundTruth(sequence: UInt64) -> [GroundTruthSubject]
}

extension GeneratedScene: GroundTruthProvider {}

/// Hand-labelled truth for a recording: face boxes at keyframes, linear between them, the
/// person present from their first keyframe to their last; frame ranges where they are hidden;
/// who speaks when.
public struct LabelledTruth: Sendable, Hashable, GroundTruthProvider {
    public struct Keyframe: Sendable, Hashable {
        public var frame: Int
        public var face: PixelRect

        public init(frame: Int, face: PixelRect) {
            self.frame = frame
            self.face = face
        }
    }

    public struct Person: Sendable, Hashable {
        public var id: Int
        /// In frame order.
        public var keyframes: [Keyframe]
        public var hidden: [ClosedRange<Int>]

        public init(id: Int, keyframes: [Keyframe], hidden: [ClosedRange<Int>] = []) {
            self.id = id
            self.keyframes = keyframes
            self.hidden = hidden
        }

        /// The face at a frame, nil outside the labelled range.
        public func face(at frame: Int) -> PixelRect? {
            guard let first = keyframes.first, let last = keyframes.last, frame >= first.frame, frame <= last.frame
            else { return nil }
            guard let next = keyframes.firstIndex(where: { $0.frame >= frame }) else { return nil }
            let b = keyframes[next]
            guard b.frame != frame, next > 0 else { return b.face }
            let a = keyframes[next - 1]
            let f = Double(frame - a.frame) / Double(b.frame - a.frame)
            func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * f }
            return PixelRect(
                x: mix(a.face.x, b.face.x), y: mix(a.face.y, b.face.y),
                width: mix(a.face.width, b.face.width), height: mix(a.face.height, b.face.height))
        }
    }

    public struct Speech: Sendable, Hashable {
        public var id: Int
        public var span: TimeSpan

        public init(id: Int, span: TimeSpan) {
            self.id = id
            self.span = span
        }
    }

    public var people: [Person]
    public var speech: [Speech]
    public var frameRate: Double

    public init(people: [Person], speech: [Speech] = [], frameRate: Double) {
        self.people = people
        self.speech = speech
        self.frameRate = frameRate
    }

    public func groundTruth(sequence: UInt64) -> [GroundTruthSubject] {
        let frame = Int(clamping: sequence)
        let time = Double(frame) / frameRate
        return people.compactMap { person in
            person.face(at: frame).map { face in
                GroundTruthSubject(
                    id: person.id, face: face, hidden: person.hidden.contains { $0.contains(frame) },
                    speaking: speech.contains { $0.id == person.id && $0.span.contains(time) })
            }
        }
    }
}
