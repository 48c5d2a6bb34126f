import Bench
import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.unit)) struct TrackingAccuracyTests {
    /// motmetrics 1.4.0 bundles two MOTChallenge sequences with a tracker's output and checks
    /// its figures against the MOTChallenge devkit's (tests/test_metrics.py); ours must agree.
    /// Columns: IDF1, IDP, IDR, recall, precision, unique objects, mostly tracked, partially
    /// tracked, mostly lost, false positives, misses, switches, fragmentations, MOTA, MOTP.
    static let reference: [(String, [Double])] = [
        (
            "TUD-Campus",
            [0.557659, 0.729730, 0.451253, 0.582173, 0.941441, 8, 1, 6, 1, 13, 150, 7, 7, 0.526462, 0.277201]
        ),
        (
            "TUD-Stadtmitte",
            [0.644619, 0.819760, 0.531142, 0.608997, 0.939920, 10, 5, 4, 1, 45, 452, 7, 6, 0.564014, 0.345904]
        ),
    ]

    @Test(arguments: reference) func matchesTheDevkitOnMOTChallengeData(_ sequence: String, _ expected: [Double]) throws
    {
        let truth = try MOTChallengeFile.parse(
            String(contentsOfFile: try Fixtures.mediaPath("motmetrics/\(sequence)/gt.txt"), encoding: .utf8))
        let output = try MOTChallengeFile.parse(
            String(contentsOfFile: try Fixtures.mediaPath("motmetrics/\(sequence)/test.txt"), encoding: .utf8))
        let s = MOTChallengeFile.evaluate(truth: truth, hypotheses: output)
        let measured: [Double] = [
            s.idf1, s.identityPrecision, s.identityRecall, s.recall, s.precision,
            Double(s.uniqueObjects), Double(s.mostlyTracked), Double(s.partiallyTracked), Double(s.mostlyLost),
            Double(s.falsePositives), Double(s.misses), Double(s.switches), Double(s.fragmentations),
            s.mota, s.motp,
        ]
        for (k, (m, e)) in zip(measured, expected).enumerated() {
            #expect(abs(m - e) < 1e-3, "column \(k): \(m) ≠ \(e)")
        }
    }

    @Test func perfectTrackerScoresOne() {
        var accuracy = TrackingAccuracy()
        for frame in 0..<10 {
            let boxes = [
                IdentifiedBox(id: 1, rect: PixelRect(x: Double(frame), y: 0, width: 10, height: 10)),
                IdentifiedBox(id: 2, rect: PixelRect(x: 50, y: Double(frame), width: 10, height: 10)),
            ]
            accuracy.add(
                frame: frame, objects: boxes, hypotheses: boxes.map { IdentifiedBox(id: $0.id + 100, rect: $0.rect) })
        }
        let s = accuracy.summary
        #expect(s.mota == 1 && s.idf1 == 1 && s.switches == 0 && s.motp == 0 && s.mostlyTracked == 2)
    }

    /// Two hypotheses trade identities halfway: one switch per object, IDF1 halves.
    @Test func swappedIdentitiesAreSwitches() {
        var accuracy = TrackingAccuracy()
        for frame in 0..<10 {
            let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
            let b = PixelRect(x: 50, y: 0, width: 10, height: 10)
            let swapped = frame >= 5
            accuracy.add(
                frame: frame, objects: [IdentifiedBox(id: 1, rect: a), IdentifiedBox(id: 2, rect: b)],
                hypotheses: [IdentifiedBox(id: swapped ? 8 : 7, rect: a), IdentifiedBox(id: swapped ? 7 : 8, rect: b)])
        }
        let s = accuracy.summary
        #expect(s.switches == 2 && s.misses == 0 && s.falsePositives == 0)
        #expect(abs(s.mota - 0.9) < 1e-9)
        #expect(abs(s.idf1 - 0.5) < 1e-9)
    }

    @Test func malformedLineIsNamed() {
        #expect(throws: LabelFileError.self) { try MOTChallengeFile.parse("1,1,2,3,4,5\n2,x,1,1,1,1\n") }
        #expect((try? MOTChallengeFile.parse("1,1,2,3,4,5,1,-1,-1,-1\n\n"))?[1]?.count == 1)
    }
}

@Suite(.tags(.unit)) struct DetectionAccuracyTests {
    @Test func countsMatchesMissesAndFalseAlarmsPerSize() {
        var accuracy = DetectionAccuracy()
        let small = PixelRect(x: 0, y: 0, width: 20, height: 20)
        let large = PixelRect(x: 100, y: 100, width: 200, height: 200)
        accuracy.add(
            labels: [small, large],
            detections: [
                (PixelRect(x: 110, y: 100, width: 200, height: 200), 0.9),  // IoU 0.905 with large
                (PixelRect(x: 100, y: 100, width: 200, height: 200), 0.8),  // a duplicate: false positive
                (PixelRect(x: 0, y: 0, width: 20, height: 20), 0.3),  // below the score threshold
            ])
        let t = accuracy.total
        #expect(t.truePositives == 1 && t.falsePositives == 1 && t.falseNegatives == 1)
        #expect(accuracy.buckets[0].falseNegatives == 1 && accuracy.buckets[3].truePositives == 1)
        #expect(abs(t.meanIoU - 190.0 * 200 / (2 * 40000 - 190 * 200)) < 1e-9)
        #expect(t.precision == 0.5 && t.recall == 0.5)
        #expect(DetectionAccuracy.bucketName(0) == "<32 px" && DetectionAccuracy.bucketName(3) == "≥128 px")
    }
}

@Suite(.tags(.unit)) struct MOTChallengeFuzzRegressionTests {
    /// Found by fuzz-files: an id of 1E400 (infinity) crashed the conversion to Int.
    @Test func infiniteOrHugeNumbersAreRefusedNotCrashed() throws {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: Fixtures.repositoryRoot + "/Tests/Fuzz/files/crash-infinite-id"))
        #expect(throws: LabelFileError.self) {
            try MOTChallengeFile.parse(String(decoding: data, as: UTF8.self))
        }
        #expect(throws: LabelFileError.self) { try MOTChallengeFile.parse("1,1,nan,0,10,10\n") }
        #expect(throws: LabelFileError.self) { try MOTChallengeFile.parse("1e300,1,0,0,10,10\n") }
    }
}
