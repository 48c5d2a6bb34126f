import DockCore
import Foundation
import Simulation

/// The keys of a generated world's sound (docs/scenes.md): its `room` (walls, reverberation,
/// the pair, the noises) and its `recorded_speech`.
extension BenchScene {
    static func readRoom(_ fields: JSONFields, people: [ScenePerson], duration: Double) throws(JSONFieldError)
        -> SceneRoom
    {
        guard let size = try fields.numbers("size_m"), size.count == 3, size.allSatisfy({ (1.5...50).contains($0) })
        else { throw fields.error("size_m", "expects [width, depth, height] in metres, each 1.5…50") }
        let box = RoomPoint(x: size[0], y: size[1], z: size[2])
        guard let rt60 = try fields.number("rt60_s", in: 0.05...3) else {
            throw fields.error(
                "rt60_s", "is required: the reverberation time in seconds (0.3 a dead room, 0.8 a lively one)")
        }
        let mics: RoomPoint
        if let at = try fields.numbers("mics_m") {
            guard at.count == 3 else { throw fields.error("mics_m", "expects [x, y, z] in metres") }
            mics = RoomPoint(x: at[0], y: at[1], z: at[2])
            guard ShoeboxRoom(size: box, absorption: 1).contains(mics) else {
                throw fields.error("mics_m", "the pair must be inside the room")
            }
        } else {
            // Centred on the wall the camera stands against, at desk height.
            mics = RoomPoint(x: box.x / 2, y: min(0.6, box.y / 4), z: min(1.1, box.z / 2))
        }
        let ids = Set(people.map(\.id))
        let noises =
            try fields.objects("noise") { (n) throws(JSONFieldError) -> SceneNoise in
                guard let name = try n.string("kind"), let kind = NoiseKind(rawValue: name) else {
                    throw n.error(
                        "kind", "is required: one of \(NoiseKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard let level = try n.number("level_db", in: -80...20) else {
                    throw n.error("level_db", "is required: its power against the speech's at the microphones, dB")
                }
                let person = try n.integer("person", in: 0...1_000_000)
                if let person, !ids.contains(person) {
                    throw n.error("person", "no person has id \(person)")
                }
                let times = try n.numbers("times_s") ?? []
                if let bad = times.first(where: { $0 < 0 || $0 > duration }) {
                    throw n.error("times_s", "\(JSONFields.format(bad)) s is outside the scene")
                }
                let spans = try Self.spans(n, "spans", within: duration)
                if !kind.isStationary, kind != .typing, times.isEmpty {
                    throw n.error("times_s", "a \(kind.rawValue) needs the times it happens at")
                }
                if kind == .typing, spans.isEmpty { throw n.error("spans", "typing needs the spans it goes on over") }
                return SceneNoise(
                    kind: kind, yaw: try n.number("yaw_deg", in: -180...180) ?? 0,
                    distance: try n.number("distance_m", in: 0.2...50) ?? 2,
                    height: try n.number("height_m", in: 0...10) ?? 1, level: level, spans: spans, times: times,
                    person: person)
            } ?? []
        let room = SceneRoom(
            size: box, reverberationTime: rt60, microphones: mics, noises: noises,
            diffuseLevel: try fields.number("diffuse_db", in: -90...0) ?? -45)
        try fields.finish()
        return room
    }

    /// `recorded_speech`: a WAV of a conversation, its RTTM turn labels, and which person voices
    /// each labelled speaker; it sets those people's `speaking` spans.
    static func readRecordedSpeech(
        _ fields: JSONFields, people: inout [ScenePerson], duration: Double, resolve: (String) -> String
    ) throws(JSONFieldError) -> RecordedSpeech {
        guard let wav = try fields.string("wav").map(resolve), FileManager.default.isReadableFile(atPath: wav) else {
            throw fields.error("wav", "is required and must be readable (Scripts/setup fetches the clips)")
        }
        guard let rttm = try fields.string("rttm").map(resolve),
            let text = try? String(contentsOfFile: rttm, encoding: .utf8)
        else { throw fields.error("rttm", "is required and must be readable: the turn labels") }
        var names: [String: Int] = [:]
        _ =
            try fields.objects("speakers") { (s) throws(JSONFieldError) -> Void in
                guard let label = try s.string("label"), let id = try s.integer("person", in: 0...1_000_000),
                    people.contains(where: { $0.id == id })
                else { throw s.error("person", "each speaker needs its \"label\" and the id of a person") }
                names[label] = id
            } ?? []
        let turns: [RecordedSpeech.Turn]
        do {
            turns = try RTTMLabels.speech(text, speakers: names, duration: duration, speakersKey: "speakers").map {
                RecordedSpeech.Turn(person: $0.id, span: $0.span)
            }
        } catch { throw fields.error("rttm", "\(rttm): \(error)") }
        for index in people.indices {
            guard people[index].speaking.isEmpty else {
                throw fields.error(
                    "speakers", "person \(people[index].id) has `speaking` spans too: the labels give them")
            }
            people[index].speaking = turns.filter { $0.person == people[index].id }.map(\.span)
        }
        try fields.finish()
        return RecordedSpeech(path: wav, turns: turns)
    }
}
