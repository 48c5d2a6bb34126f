import DockCore
import Foundation

/// Makes a face and a body one person. A face belongs to a body when it sits where a head sits
/// on that body: centred over it, in its top part, a plausible size for it, judged on both as
/// detected in the same frame (a body detector that reports late is matched with the face as it
/// was in the frame the body came from). Links are kept while both tracks live and (when both
/// are seen in the same frame) still fit, so a person whose face
/// turns away stays the same person through the body, and a face that comes back is linked to
/// the body again and takes its identity. The older identity wins a new link.
struct PersonLinker: Sendable {
    /// Face width as a share of body width: a head is about a third of the shoulders' span; wide
    /// bounds because bodies are cut by the frame and detectors box them loosely.
    static let faceToBodyWidth: ClosedRange<Double> = 0.12...0.8
    /// The head's centre lies in this top share of the body box.
    static let headBand = 0.45

    /// How well `face` sits as the head of `body`: 0 (not at all) to 1 (where a head would be).
    static func fit(face: NormalizedRect, body: NormalizedRect) -> Double {
        guard body.width > 0, body.height > 0 else { return 0 }
        let ratio = face.width / body.width
        guard faceToBodyWidth.contains(ratio) else { return 0 }
        // Lower-left origin: the body's top edge is maxY.
        guard face.midY <= body.maxY + face.height / 2, face.midY >= body.maxY - headBand * body.height else {
            return 0
        }
        let sideways = abs(face.midX - body.midX) / (body.width / 2)
        guard sideways < 0.7 else { return 0 }
        return 1 - sideways / 0.7 * 0.5
    }

    mutating func link(_ tracks: inout [TrackedSubject], at time: MonotonicInstant) {
        let index = Dictionary(uniqueKeysWithValues: tracks.enumerated().map { ($1.id, $0) })
        // Drop links whose partner is gone or no longer fits.
        for t in tracks.indices {
            guard let partner = tracks[t].linkedID else { continue }
            guard let p = index[partner] else {
                tracks[t].linkedID = nil
                continue
            }
            let (face, body) = tracks[t].kind == .humanFace ? (tracks[t], tracks[p]) : (tracks[p], tracks[t])
            if let faceRect = face.observedRect(at: time), let bodyRect = body.observedRect(at: time) {
                if Self.fit(face: faceRect, body: bodyRect) == 0 {
                    tracks[t].linkedID = nil
                    tracks[p].linkedID = nil
                }
            }
        }
        // New links among unlinked faces and bodies seen in the frame captured at `time`.
        let faces = tracks.indices.filter {
            tracks[$0].kind == .humanFace && tracks[$0].linkedID == nil && tracks[$0].observedRect(at: time) != nil
        }
        let bodies = tracks.indices.filter {
            tracks[$0].kind == .humanBody && tracks[$0].linkedID == nil && tracks[$0].observedRect(at: time) != nil
        }
        guard !faces.isEmpty, !bodies.isEmpty else { return }
        let costs: [[Double?]] = faces.map { f in
            bodies.map { b in
                let fit = Self.fit(face: tracks[f].observedRect(at: time)!, body: tracks[b].observedRect(at: time)!)
                return fit > 0 ? 1 - fit : nil
            }
        }
        for (row, column) in LinearAssignment.solve(costs) {
            let f = faces[row]
            let b = bodies[column]
            tracks[f].linkedID = tracks[b].id
            tracks[b].linkedID = tracks[f].id
            let identity = tracks[f].identitySince <= tracks[b].identitySince ? tracks[f].uuid : tracks[b].uuid
            tracks[f].uuid = identity
            tracks[b].uuid = identity
        }
    }
}
