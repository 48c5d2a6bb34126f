import DockCore
import Foundation
import Testing

@testable import Bench

@Suite(.tags(.unit)) struct DigitalFramingEvaluationTests {
    /// 30 fps samples of one person whose face is at `face(t)`, the crop at `crop(t)`.
    static func samples(seconds: Double, face: (Double) -> PixelRect, crop: (Double) -> PixelRect?) -> [FrameSample] {
        stride(from: 0.0, to: seconds, by: 1.0 / 30).map { t in
            FrameSample(time: t, people: [PersonSample(id: 1, rect: face(t))], selected: face(t), crop: crop(t))
        }
    }

    static func evaluate(_ samples: [FrameSample]) -> DigitalFramingEvaluation {
        DigitalFramingEvaluation(samples: samples, primaryID: 1, focalLength: 1000, outputWidth: 1280, eyeLine: 0.62)
    }

    @Test func aFaceOnTheFramingPointIsCentredAndInView() throws {
        // Crop 400×225 at (300, 100): framing point (500, 100 + 0.38·225 = 185.5).
        let e = Self.evaluate(
            Self.samples(seconds: 2, face: { _ in PixelRect(x: 480, y: 165.5, width: 40, height: 40) }) { _ in
                PixelRect(x: 300, y: 100, width: 400, height: 225)
            })
        #expect(try #require(e.centringErrors.rootMeanSquare) < 1e-9)
        #expect(e.inViewShare == 1)
        #expect(e.stillJitterRMS == 0 && e.stillFrames > 20)
        #expect(e.zoomChangesPerMinute == 0)
    }

    @Test func anOffsetIsAnAngleThroughTheFocalLengthAndOutsideIsOutOfView() throws {
        // The face 100 px right of the framing point: atan(100 / 1000) = 5.71°; then outside the crop.
        let e = Self.evaluate(
            Self.samples(seconds: 2, face: { t in PixelRect(x: t < 1 ? 580 : 780, y: 165.5, width: 40, height: 40) }) {
                _ in PixelRect(x: 300, y: 100, width: 400, height: 225)
            })
        #expect(abs(try #require(e.centringErrors.value(at: 25)) - 5.71) < 0.01)
        #expect(abs(try #require(e.inViewShare) - 0.5) < 0.02)
    }

    @Test func cropWobbleOnAStillSubjectIsJitterInOutputPixels() throws {
        // The crop wobbles by one view pixel a frame: 1 × 1280 / 400 = 3.2 output pixels.
        let e = Self.evaluate(
            Self.samples(seconds: 3, face: { _ in PixelRect(x: 480, y: 165, width: 40, height: 40) }) { t in
                PixelRect(x: 300 + Double(Int((t * 30).rounded()) % 2), y: 100, width: 400, height: 225)
            })
        #expect(abs(try #require(e.stillJitterRMS) - 3.2) < 1e-6)
        // Only frames after a second of stillness count.
        #expect(e.stillFrames >= 55 && e.stillFrames <= 61)
    }

    @Test func zoomMotionsAreCountedOncePerMotion() throws {
        // Two zoom motions in four seconds: a 0.2 s ramp, then a one-frame step.
        let e = Self.evaluate(
            Self.samples(seconds: 4, face: { _ in PixelRect(x: 480, y: 165, width: 40, height: 40) }) { t in
                let width: Double = t < 1 ? 400 : (t < 1.2 ? 400 - (t - 1) * 100 : (t < 3 ? 380 : 360))
                return PixelRect(x: 300, y: 100, width: width, height: width * 9 / 16)
            })
        let minutes: Double = (4.0 - 1.0 / 30) / 60
        let zooms = try #require(e.zoomChangesPerMinute)
        #expect(abs(zooms - 2 / minutes) < 1)
    }

    @Test func stillnessStartsAgainWhenTheTargetChangesToAnotherPerson() throws {
        // Two still people; the first speaks for 1.5 s, then the second. The crop wobbles all
        // along, but only a second after each becomes the target does its motion count.
        let first = PixelRect(x: 300, y: 165, width: 40, height: 40)
        let second = PixelRect(x: 600, y: 165, width: 40, height: 40)
        var samples: [FrameSample] = []
        for frame in 0..<90 {
            let t = Double(frame) / 30
            let people = [
                PersonSample(id: 1, rect: first, speaking: t < 1.5),
                PersonSample(id: 2, rect: second, speaking: t >= 1.5),
            ]
            let crop = PixelRect(x: 300 + Double(frame % 2), y: 100, width: 400, height: 225)
            samples.append(FrameSample(time: t, people: people, selected: nil, crop: crop))
        }
        let e = Self.evaluate(samples)
        // About 15 frames from 1.0 to 1.5 s and 15 from 2.5 to 3 s, not the 60 of a single target.
        #expect(e.stillFrames >= 26 && e.stillFrames <= 34, "\(e.stillFrames) frames counted")
    }
}
