import DockCore
import Foundation
import TestSupport
import Testing

@testable import Perception

/// Bodies and objects run beside the frame path: a slow detector never holds up a frame, and its
/// results come back with a later frame, stamped with their own.
@Suite(.tags(.unit)) struct SlowDetectorTests {
    /// Finds one thing per frame, taking `seconds` over it, and says which frame it ran on.
    final class TimedDetector: Detector {
        let name: String
        let kind: ObservationKind
        let seconds: Double
        let ranOn = Protected<[UInt64]>([])
        init(name: String, kind: ObservationKind, seconds: Double) {
            self.name = name
            self.kind = kind
            self.seconds = seconds
        }
        func detect(_ frame: Frame) throws(DetectorError) -> [Detection] {
            Thread.sleep(forTimeInterval: seconds)
            ranOn.withLock { $0.append(frame.stamp.sequence) }
            return [
                Detection(
                    kind: kind, label: name, rect: PixelRect(x: 10, y: 10, width: 20, height: 40), score: 0.9,
                    stamp: frame.stamp, imageSize: frame.size)
            ]
        }
    }

    func frame(_ i: Int) -> Frame {
        Frame(
            stamp: FrameStamp(sequence: UInt64(i), time: MonotonicInstant(seconds: Double(i) / 30)), width: 64,
            height: 48, format: .bgr, fill: 90)
    }

    @Test func aSlowBodyDetectorNeverHoldsUpAFrame() throws {
        let faces = TimedDetector(name: "faces", kind: .humanFace, seconds: 0)
        let bodies = TimedDetector(name: "bodies", kind: .humanBody, seconds: 0.15)
        let stage = DetectionStage(faces: faces, bodies: bodies)
        var late: [LateDetections] = []
        var slowest = 0.0
        for i in 0..<30 {
            let start = Date()
            let result = stage.detect(frame(i))
            slowest = max(slowest, Date().timeIntervalSince(start))
            #expect(result.detections.allSatisfy { $0.kind == .humanFace && $0.imageSize == frame(i).size })
            late += result.late
            Thread.sleep(forTimeInterval: 1.0 / 30)
        }
        // 0.15 s a pass: far less than a pass per frame, and never one in a frame's time.
        #expect(slowest < 0.1, "a frame waited \(slowest) s")
        #expect(!late.isEmpty)
        for result in late {
            #expect(result.searched == [.humanBody] && result.detections.map(\.kind) == [.humanBody])
            #expect(bodies.ranOn.withLock { $0 }.contains(result.stamp.sequence))
        }
        #expect(late.map(\.stamp.sequence) == late.map(\.stamp.sequence).sorted())
    }

    /// In lock-step the results come with the first frame at least the delay after theirs,
    /// however slow the detector: the same frames get the same results on every run.
    @Test func lockStepDeliveryIsTheSameOnEveryRun() {
        func run(bodySeconds: Double) -> [Int: [UInt64]] {
            let stage = DetectionStage(
                faces: TimedDetector(name: "faces", kind: .humanFace, seconds: 0),
                bodies: TimedDetector(name: "bodies", kind: .humanBody, seconds: bodySeconds))
            stage.slowDelivery = .after(seconds: 0.05, waits: true)
            var deliveries: [Int: [UInt64]] = [:]
            for i in 0..<24 {
                let result = stage.detect(frame(i))
                if !result.late.isEmpty { deliveries[i] = result.late.map(\.stamp.sequence) }
            }
            return deliveries
        }
        let quick = run(bodySeconds: 0)
        #expect(quick == run(bodySeconds: 0.08))
        // Bodies every 0.2 s with faces seen: frames 0, 6, 12, 18, each delivered two frames on.
        #expect(quick == [2: [0], 8: [6], 14: [12], 20: [18]])
    }

    /// Live, the same schedule, but a pass that overruns its due frame is not waited for: the
    /// frames go on, and its results come with the first frame after it is done.
    @Test func liveDeliveryNeverWaitsForAnOverrunningPass() {
        let stage = DetectionStage(
            faces: TimedDetector(name: "faces", kind: .humanFace, seconds: 0),
            bodies: TimedDetector(name: "bodies", kind: .humanBody, seconds: 0.3))
        stage.slowDelivery = .after(seconds: 0.05, waits: false)
        var delivered: [Int: [UInt64]] = [:]
        for i in 0..<4 {
            let result = stage.detect(frame(i))
            #expect(result.waitedForLate == 0)
            if !result.late.isEmpty { delivered[i] = result.late.map(\.stamp.sequence) }
        }
        #expect(delivered.isEmpty, "frame 0's pass takes 0.3 s: not done by frames 2 and 3")
        Thread.sleep(forTimeInterval: 0.6)
        let later = stage.detect(frame(4))
        #expect(later.late.map(\.stamp.sequence) == [0] && later.waitedForLate == 0)
    }
}
