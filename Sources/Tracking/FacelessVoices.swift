import DockCore
import Foundation

/// Voices from bearings where nobody sits: the head may turn to one to find a person out of
/// view, but a bearing that has "talked" a long while without a face, or where the head looked
/// and found nobody, is a machine (a television, a loudspeaker, a fan the front end could not
/// tell from speech) and never takes the camera again. Bearings in radians, the room's frame.
public struct FacelessVoices: Sendable {
    struct Source: Sendable, Hashable {
        var bearing: Double
        var heardSeconds: Double
        var lastHeard: MonotonicInstant
        var isMachine: Bool
    }

    /// Voices this close (radians) are one source.
    public var reach = 10 * Double.pi / 180
    /// Speech heard from a faceless bearing for this long in all makes it a machine.
    public var machineSeconds = 30.0
    /// A source not heard for this long is forgotten (a machine too: it may have been moved).
    public var forgetSeconds = 600.0

    private var sources: [Source] = []

    public init() {}

    /// `seconds` of speech nobody in the room was given, from `bearing`.
    public mutating func hear(_ bearing: Double, seconds: Double, at now: MonotonicInstant) {
        sources.removeAll { now.seconds(since: $0.lastHeard) > forgetSeconds }
        if let i = nearest(bearing) {
            sources[i].heardSeconds += seconds
            sources[i].lastHeard = now
            // The estimate follows the source while it is young, then settles.
            let weight = max(0.02, seconds / max(sources[i].heardSeconds, seconds))
            sources[i].bearing += weight * (bearing - sources[i].bearing)
            if sources[i].heardSeconds >= machineSeconds { sources[i].isMachine = true }
        } else {
            sources.append(Source(bearing: bearing, heardSeconds: seconds, lastHeard: now, isMachine: false))
        }
    }

    /// The head looked at `bearing` and found nobody there.
    public mutating func foundNobody(at bearing: Double, at now: MonotonicInstant) {
        if let i = nearest(bearing) {
            sources[i].isMachine = true
            sources[i].lastHeard = now
        } else {
            sources.append(Source(bearing: bearing, heardSeconds: 0, lastHeard: now, isMachine: true))
        }
    }

    public func isMachine(_ bearing: Double) -> Bool {
        nearest(bearing).map { sources[$0].isMachine } ?? false
    }

    public var machineBearings: [Double] { sources.filter(\.isMachine).map(\.bearing) }

    private func nearest(_ bearing: Double) -> Int? {
        sources.indices.filter { abs(sources[$0].bearing - bearing) <= reach }
            .min { abs(sources[$0].bearing - bearing) < abs(sources[$1].bearing - bearing) }
    }
}
