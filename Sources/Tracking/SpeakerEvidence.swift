import DockCore
import Foundation

/// speakingConfidence per person: voice activity attributed to people by how well the sound's
/// direction agrees with where each person is, smoothed over time. Without a direction (one
/// microphone) speech cannot be attributed and nobody's confidence rises.
public struct SpeakerEvidence: Sendable {
    /// How far (radians) a person may sit from the sound's direction and still be its source:
    /// the standard deviation of the agreement.
    public var directionSpread = 6 * Double.pi / 180
    /// Directions whose GCC-PHAT peak is below this are too unclear to attribute.
    public var minimumCoherence = 0.08
    /// Time constant of rising and falling confidence (s).
    public var timeConstant = 0.3

    private var confidence: [UUID: Double] = [:]

    public init() {}

    /// One audio window: was there speech, and from which direction (radians, the same frame as
    /// `people`'s angles); `people` are the persons present with their current angles.
    public mutating func update(speech: Bool, direction: Double?, coherence: Double?, people: [(uuid: UUID, angle: Double)], seconds: Double) {
        var target: [UUID: Double] = [:]
        if speech, let direction, (coherence ?? 1) >= minimumCoherence {
            for person in people {
                let d = (person.angle - direction) / directionSpread
                target[person.uuid] = exp(-0.5 * d * d)
            }
        }
        let alpha = 1 - exp(-seconds / timeConstant)
        for person in people {
            let old = confidence[person.uuid] ?? 0
            confidence[person.uuid] = old + alpha * ((target[person.uuid] ?? 0) - old)
        }
        // People no longer present fade too.
        for uuid in confidence.keys where !people.contains(where: { $0.uuid == uuid }) {
            confidence[uuid]! *= 1 - alpha
            if confidence[uuid]! < 0.01 { confidence[uuid] = nil }
        }
    }

    public func speakingConfidence(_ uuid: UUID) -> Double? { confidence[uuid] }
    public var all: [UUID: Double] { confidence }
}
