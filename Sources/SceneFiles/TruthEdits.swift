import DockCore
import Simulation

/// One change a reviewer makes to a recording's truth (`dockctl review`): the mistakes a
/// tracker's proposal has, each undone in one step.
public enum TruthEdit: Sendable, Equatable {
    /// The first person's boxes and speech become the second's: the tracker took one person for two.
    case merge(Int, into: Int)
    /// From the frame on, the person is someone new: the tracker took two people for one.
    case split(Int, atFrame: Int)
    /// The person is not there over these frames: the boxes were false.
    case hide(Int, frames: ClosedRange<Int>)
    /// The person is no one: every box and turn of theirs goes.
    case drop(Int)
    /// The person speaks (or is silent) over this span, seconds.
    case speech(Int, TimeSpan, speaking: Bool)
}

/// Why an edit was refused, in one line.
public struct TruthEditError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

extension LabelledTruth {
    /// Applies `edit`; the people's boxes stay exactly what they were wherever the edit does not
    /// change who is seen. A person left with no frame seen is dropped.
    public mutating func apply(_ edit: TruthEdit) throws(TruthEditError) {
        switch edit {
        case .merge(let from, let into):
            guard from != into else { throw TruthEditError("merge needs two different people") }
            let (a, b) = (try person(into), try person(from))
            let onlyB = b.visibleRuns.flatMap { run in a.visibleRuns.reduce([run]) { Self.subtract($0, $1) } }
            replace(into, with: Person.composed(id: into, from: a.visibleRuns.map { (a, $0) } + onlyB.map { (b, $0) }))
            people.removeAll { $0.id == from }
            for i in speech.indices where speech[i].id == from { speech[i].id = into }
            setSpeech(of: into, to: Self.union(speech.filter { $0.id == into }.map(\.span)))
        case .split(let id, let frame):
            let p = try person(id)
            guard let first = p.keyframes.first?.frame, let last = p.keyframes.last?.frame, frame > first,
                frame <= last
            else {
                throw TruthEditError(
                    "person \(id) is labelled from frame \(p.keyframes.first?.frame ?? 0) to \(p.keyframes.last?.frame ?? 0): split at a frame after the first"
                )
            }
            let newID = (people.map(\.id).max() ?? 0) + 1
            let before = Self.subtract(p.visibleRuns, frame...Int.max).map { (p, $0) }
            let after = Self.subtract(p.visibleRuns, Int.min...(frame - 1)).map { (p, $0) }
            guard let kept = Person.composed(id: id, from: before),
                let newcomer = Person.composed(id: newID, from: after)
            else { throw TruthEditError("person \(id) is seen on one side of frame \(frame) only: nothing to split") }
            replace(id, with: kept)
            people.append(newcomer)
            let cut = Double(frame) / frameRate
            speech = speech.flatMap { turn -> [Speech] in
                guard turn.id == id else { return [turn] }
                if turn.span.end <= cut { return [turn] }
                if turn.span.start >= cut { return [Speech(id: newID, span: turn.span)] }
                return [
                    Speech(id: id, span: TimeSpan(turn.span.start, cut)),
                    Speech(id: newID, span: TimeSpan(cut, turn.span.end)),
                ]
            }
        case .hide(let id, let frames):
            let p = try person(id)
            replace(id, with: Person.composed(id: id, from: Self.subtract(p.visibleRuns, frames).map { (p, $0) }))
        case .drop(let id):
            _ = try person(id)
            people.removeAll { $0.id == id }
            speech.removeAll { $0.id == id }
        case .speech(let id, let span, let speaking):
            _ = try person(id)
            guard span.start >= 0, span.start < span.end else {
                throw TruthEditError("a span of speech runs forward from 0 s or later")
            }
            let mine = speech.filter { $0.id == id }.map(\.span)
            setSpeech(of: id, to: speaking ? Self.union(mine + [span]) : mine.flatMap { Self.subtract($0, span) })
        }
    }

    /// `id`'s turns become `spans`; everyone's turns in time order.
    private mutating func setSpeech(of id: Int, to spans: [TimeSpan]) {
        speech.removeAll { $0.id == id }
        speech += spans.map { Speech(id: id, span: $0) }
        speech.sort { ($0.span.start, $0.id) < ($1.span.start, $1.id) }
    }

    private func person(_ id: Int) throws(TruthEditError) -> Person {
        guard let p = people.first(where: { $0.id == id }) else {
            throw TruthEditError("no person \(id) (people: \(people.map { String($0.id) }.joined(separator: ", ")))")
        }
        return p
    }

    /// Puts `person` in `id`'s place, or drops `id` when nothing of them is left.
    private mutating func replace(_ id: Int, with person: Person?) {
        guard let index = people.firstIndex(where: { $0.id == id }) else { return }
        if let person { people[index] = person } else { people.remove(at: index) }
        if person == nil { speech.removeAll { $0.id == id } }
    }

    static func subtract(_ runs: [ClosedRange<Int>], _ cut: ClosedRange<Int>) -> [ClosedRange<Int>] {
        runs.flatMap { run -> [ClosedRange<Int>] in
            guard run.overlaps(cut) else { return [run] }
            var left: [ClosedRange<Int>] = []
            if run.lowerBound < cut.lowerBound { left.append(run.lowerBound...(cut.lowerBound - 1)) }
            if run.upperBound > cut.upperBound { left.append((cut.upperBound + 1)...run.upperBound) }
            return left
        }
    }

    /// Overlapping or touching spans as one; in time order.
    static func union(_ spans: [TimeSpan]) -> [TimeSpan] {
        spans.sorted { $0.start < $1.start }.reduce(into: []) { out, span in
            if let last = out.last, span.start <= last.end {
                out[out.count - 1].end = max(last.end, span.end)
            } else {
                out.append(span)
            }
        }
    }

    static func subtract(_ span: TimeSpan, _ cut: TimeSpan) -> [TimeSpan] {
        guard span.start < cut.end, cut.start < span.end else { return [span] }
        var left: [TimeSpan] = []
        if span.start < cut.start { left.append(TimeSpan(span.start, cut.start)) }
        if span.end > cut.end { left.append(TimeSpan(cut.end, span.end)) }
        return left
    }
}

extension LabelledTruth.Person {
    /// The frames the person is seen in: from the first keyframe to the last, less the hidden ones.
    public var visibleRuns: [ClosedRange<Int>] {
        guard let first = keyframes.first?.frame, let last = keyframes.last?.frame else { return [] }
        return hidden.reduce([first...last]) { LabelledTruth.subtract($0, $1) }
    }

    /// A person seen over `pieces`' frames, each piece's boxes the source person's there: a
    /// keyframe at each end of every piece keeps the boxes between exactly what they were, and
    /// the frames between pieces are hidden. Nil when no frame is left.
    static func composed(id: Int, from pieces: [(source: Self, frames: ClosedRange<Int>)]) -> Self? {
        var keyframes: [LabelledTruth.Keyframe] = []
        let sorted = pieces.sorted { $0.frames.lowerBound < $1.frames.lowerBound }
        for (source, frames) in sorted {
            let inside = source.keyframes.filter { frames.contains($0.frame) }
            for frame in Set([frames.lowerBound, frames.upperBound])
            where !inside.contains(where: { $0.frame == frame }) {
                if let face = source.face(at: frame) { keyframes.append(.init(frame: frame, face: face.rounded)) }
            }
            keyframes += inside
        }
        keyframes.sort { $0.frame < $1.frame }
        guard !keyframes.isEmpty else { return nil }
        var hidden: [ClosedRange<Int>] = []
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.frames.lowerBound > a.frames.upperBound + 1 {
            hidden.append((a.frames.upperBound + 1)...(b.frames.lowerBound - 1))
        }
        return Self(id: id, keyframes: keyframes, hidden: hidden)
    }
}

extension PixelRect {
    /// Whole pixels, as label files keep them.
    var rounded: PixelRect {
        PixelRect(x: x.rounded(), y: y.rounded(), width: width.rounded(), height: height.rounded())
    }
}
