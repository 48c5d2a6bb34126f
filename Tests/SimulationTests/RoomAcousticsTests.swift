import Audio
import Foundation
import TestSupport
import Testing

@testable import Simulation

/// A generated room's impulse responses against pyroomacoustics' image-source shoebox (run in its
/// own venv, see Scripts/setup): the same absorption for a reverberation time, the direct sound
/// at the same sample with the same amplitude, and the same measured reverberation time (T30).
@Suite(.tags(.process), .notInFastRuns) struct RoomAcousticsTests {
    struct Reference: Decodable {
        var absorption: Double
        var directIndex: Int
        var directValue: Double
        var rt60Measured: Double

        enum CodingKeys: String, CodingKey {
            case absorption
            case directIndex = "direct_index"
            case directValue = "direct_value"
            case rt60Measured = "rt60_measured"
        }
    }

    static let python = Fixtures.repositoryRoot + "/.cache/pyroomacoustics/bin/python"

    static func reference(size: RoomPoint, rt60: Double, source: RoomPoint, mic: RoomPoint) throws -> Reference {
        let spec: [String: Any] = [
            "size_m": [size.x, size.y, size.z], "rt60_s": rt60, "source_m": [source.x, source.y, source.z],
            "mic_m": [mic.x, mic.y, mic.z], "fs": 48000,
        ]
        let input = Fixtures.temporaryDirectory("room") + "/spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: input))
        let result = try ProcessRunner.run(
            "/bin/sh", ["-c", "\(python) Scripts/room-acoustics-peer.py < \(input)"])
        try #require(result.status == 0, "pyroomacoustics failed: \(result.stderr)")
        return try JSONDecoder().decode(Reference.self, from: Data(result.stdout.utf8))
    }

    @Test(arguments: [
        (RoomPoint(x: 5, y: 4, z: 2.7), 0.6, RoomPoint(x: 1.5, y: 2.9, z: 1.2), RoomPoint(x: 2.45, y: 0.6, z: 1.1)),
        (RoomPoint(x: 6, y: 5, z: 2.8), 0.4, RoomPoint(x: 4.1, y: 2.2, z: 1.6), RoomPoint(x: 3.0, y: 0.6, z: 1.1)),
        (RoomPoint(x: 7, y: 6, z: 3), 0.8, RoomPoint(x: 2.0, y: 4.5, z: 1.2), RoomPoint(x: 3.5, y: 0.6, z: 1.1)),
    ])
    func impulseResponsesAgreeWithPyroomacoustics(size: RoomPoint, rt60: Double, source: RoomPoint, mic: RoomPoint)
        throws
    {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            Issue.record("\(Self.python) is missing: run Scripts/setup")
            return
        }
        let theirs = try Self.reference(size: size, rt60: rt60, source: source, mic: mic)
        let room = ShoeboxRoom(size: size, reverberationTime: rt60)
        #expect(abs(room.absorption - theirs.absorption) < 1e-9, "\(room.absorption) against \(theirs.absorption)")
        let h = room.impulseResponse(from: source, to: mic, sampleRate: 48000, seed: 7)
        let peak = try #require(ImpulseResponseMeasure.peak(h))
        #expect(
            abs(peak.index - theirs.directIndex) <= 1, "direct sound at \(peak.index), theirs \(theirs.directIndex)")
        #expect(
            abs(Double(peak.value) - theirs.directValue) / theirs.directValue < 0.03,
            "direct amplitude \(peak.value), theirs \(theirs.directValue)")
        let ours = try #require(ImpulseResponseMeasure.reverberationTime(h, sampleRate: 48000))
        #expect(
            abs(ours - theirs.rt60Measured) / theirs.rt60Measured < 0.1,
            "T30 \(ours) s, theirs \(theirs.rt60Measured) s")
        // Both run longer than Sabine's figure the absorption was set from, never shorter.
        #expect(ours > 0.97 * rt60 && ours < 1.35 * rt60, "T30 \(ours) s for a Sabine \(rt60) s")
    }

    /// The tail carries no step where the listed reflections end: the energy just after the
    /// join is within a factor of two of just before it.
    @Test(.tags(.unit)) func theTailJoinsTheReflectionsSmoothly() {
        let room = ShoeboxRoom(size: RoomPoint(x: 5, y: 4, z: 2.7), reverberationTime: 0.6)
        let h = room.impulseResponse(
            from: RoomPoint(x: 1.5, y: 2.9, z: 1.2), to: RoomPoint(x: 2.45, y: 0.6, z: 1.1), sampleRate: 48000, seed: 3)
        let join = Int(Double(room.imageOrder) * 2.7 / ShoeboxRoom.speedOfSound * 48000)
        func energy(_ range: Range<Int>) -> Double {
            range.reduce(0) { $0 + Double(h[$1] * h[$1]) } / Double(range.count)
        }
        let before = energy((join - 960)..<join)
        let after = energy((join + 240)..<(join + 1200))
        #expect(after / before > 0.5 && after / before < 2, "before \(before), after \(after)")
    }
}
