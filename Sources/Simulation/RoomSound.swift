import Audio
import DockCore
import Foundation

/// A scene's sound as a pair fixed in its room hears it: every voice and every noise through the
/// room's impulse responses to each microphone, the noises scaled to their level against the
/// speech, over a diffuse floor.
enum RoomSound {
    static let sampleRate = SceneAudio.sampleRate

    /// Both microphones, left then right (the pair lies along x, so a source to the right, +x,
    /// reaches the right microphone first).
    static func render(
        _ scene: SceneConfiguration, room: SceneRoom, array: MicrophoneArray,
        speech: [(person: ScenePerson, track: [Float])]
    ) -> [[Float]] {
        let count = speech.first?.track.count ?? Int((scene.resolvedDuration + 0.5) * sampleRate)
        let shoebox = room.shoebox
        let half = array.spacing / 2
        let mics = [
            RoomPoint(x: room.microphones.x - half, y: room.microphones.y, z: room.microphones.z),
            RoomPoint(x: room.microphones.x + half, y: room.microphones.y, z: room.microphones.z),
        ]
        var seed = scene.seed &* 7919
        func heard(_ dry: [Float], from source: RoomPoint) -> [[Float]] {
            mics.map { mic in
                seed &+= 1
                let h = shoebox.impulseResponse(from: source, to: mic, sampleRate: sampleRate, seed: seed)
                return Convolution.apply(h, to: dry)
            }
        }
        var out = [[Float]](repeating: [Float](repeating: 0, count: count), count: 2)
        var active = [Bool](repeating: false, count: count)
        for (person, track) in speech {
            // One response per place the person speaks from (to the nearest degree).
            var byPlace: [Int: [Float]] = [:]
            for span in person.speaking.isEmpty ? [TimeSpan(0, Double(count) / sampleRate)] : person.speaking {
                let yaw = Int(person.script.angles(at: (span.start + span.end) / 2).yaw.rounded())
                let from = max(0, Int(span.start * sampleRate))
                let to = min(count, Int(span.end * sampleRate))
                guard from < to else { continue }
                var part = byPlace[yaw] ?? [Float](repeating: 0, count: count)
                for n in from..<to {
                    part[n] = track[n]
                    active[n] = true
                }
                byPlace[yaw] = part
            }
            for (yaw, part) in byPlace.sorted(by: { $0.key < $1.key }) {
                let place = room.position(
                    yawDegrees: Double(yaw), distance: person.distance, height: person.mouthHeight)
                let wet = heard(part, from: clamped(place, in: shoebox))
                for c in 0..<2 { for n in 0..<count { out[c][n] += wet[c][n] } }
            }
        }
        let speechPower = meanSquare(out[0], where: active)
        for (index, noise) in room.noises.enumerated() {
            let dry = noise.kind.synthesize(
                count: count, sampleRate: sampleRate, spans: noise.spans, times: noise.times,
                seed: scene.seed &+ 1000 &+ UInt64(index))
            let place: RoomPoint
            if let id = noise.person, let person = scene.people.first(where: { $0.id == id }) {
                let yaw = person.script.angles(at: noise.times.first ?? 0).yaw
                place = room.position(yawDegrees: yaw, distance: person.distance, height: person.mouthHeight)
            } else {
                place = room.position(yawDegrees: noise.yaw, distance: noise.distance, height: noise.height)
            }
            let sounding = dry.map { $0 != 0 }
            let wet = heard(dry, from: clamped(place, in: shoebox))
            let power = meanSquare(wet[0], where: sounding)
            guard power > 0, speechPower > 0 else { continue }
            let gain = Float((speechPower * pow(10, noise.level / 10) / power).squareRoot())
            for c in 0..<2 { for n in 0..<count { out[c][n] += gain * wet[c][n] } }
        }
        // The diffuse floor: pink noise, independent at the two microphones.
        let floorRMS = Float((max(speechPower, 1e-8) * pow(10, room.diffuseLevel / 10)).squareRoot())
        for c in 0..<2 {
            var random = SeededGenerator(seed: scene.seed &+ 500 &+ UInt64(c))
            var pink = PinkNoise()
            // Pink noise from uniform white in −1…1 has an RMS of about 0.14.
            for n in 0..<count {
                out[c][n] += floorRMS / 0.14 * Float(pink.next(Double.random(in: -1...1, using: &random)))
            }
        }
        return out
    }

    /// A source kept half a metre inside the walls (a person "beyond" a wall stands at it).
    static func clamped(_ p: RoomPoint, in room: ShoeboxRoom) -> RoomPoint {
        func clamp(_ v: Double, _ limit: Double) -> Double { min(max(v, 0.5), limit - 0.5) }
        return RoomPoint(x: clamp(p.x, room.size.x), y: clamp(p.y, room.size.y), z: clamp(p.z, room.size.z))
    }

    static func meanSquare(_ x: [Float], where mask: [Bool]) -> Double {
        var sum = 0.0
        var n = 0
        for i in x.indices where mask[i] {
            sum += Double(x[i]) * Double(x[i])
            n += 1
        }
        return n > 0 ? sum / Double(n) : 0
    }
}
