import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@Suite(.tags(.unit)) struct JPEGDecoderTests {
    /// astronaut.png re-encoded as a JPEG by OpenCV, and the original pixels.
    func jpeg() throws -> (bytes: [UInt8], original: Frame) {
        let original = try Fixtures.photo("astronaut.png")
        let path = Fixtures.temporaryDirectory("jpeg") + "/astronaut.jpg"
        try original.write(to: path)
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), original)
    }

    static func meanAbsoluteDifference(_ a: Frame, _ b: Frame) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    @Test(arguments: DecodeScale.allCases)
    func decodesAtEveryScale(_ scale: DecodeScale) throws {
        let (bytes, original) = try jpeg()
        let stamp = FrameStamp(sequence: 7, time: MonotonicInstant(seconds: 1.5))
        let frame = try bytes.withUnsafeBytes { try JPEGDecoder().decode($0, scale: scale, stamp: stamp) }
        #expect(frame.width == 512 / scale.rawValue && frame.height == 512 / scale.rawValue)
        #expect(frame.stamp == stamp)
        // The picture is the photo, not noise: close to the original shrunk the ordinary way.
        let reference = try original.resized(to: frame.size)
        #expect(Self.meanAbsoluteDifference(frame, reference) < 8)
    }

    @Test func decodesToGray() throws {
        let (bytes, original) = try jpeg()
        let gray = try bytes.withUnsafeBytes {
            try JPEGDecoder().decode($0, scale: .half, format: .gray, stamp: FrameStamp(sequence: 0, time: .zero))
        }
        #expect(gray.format == .gray && gray.pixels.count == 256 * 256)
        let reference = try original.converted(to: .gray).resized(to: gray.size)
        #expect(Self.meanAbsoluteDifference(gray, reference) < 8)
    }

    @Test func truncatedJPEGIsRefusedNotTrusted() throws {
        let (bytes, _) = try jpeg()
        let truncated = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: JPEGError.self) {
            try truncated.withUnsafeBytes { try JPEGDecoder().decode($0, stamp: FrameStamp(sequence: 0, time: .zero)) }
        }
    }

    @Test func garbageIsNotAJPEG() {
        let garbage: [UInt8] = Array("definitely not a jpeg".utf8)
        #expect {
            try garbage.withUnsafeBytes { try JPEGDecoder().decode($0, stamp: FrameStamp(sequence: 0, time: .zero)) }
        } throws: { error in
            guard case .invalidHeader = error as? JPEGError else { return false }
            return true
        }
    }

    /// A damaged frame costs only itself: the good frames after it, through the same decoder,
    /// decode (libturbojpeg's handle keeps an error state that used to refuse the next one).
    @Test func aDamagedFrameDoesNotSpoilTheNext() throws {
        let (bytes, original) = try jpeg()
        let damaged = Array(bytes.prefix(600)) + [UInt8](repeating: 0x5A, count: 400)
        let decoder = JPEGDecoder()
        let stamp = FrameStamp(sequence: 0, time: .zero)
        for _ in 0..<3 {
            #expect(throws: JPEGError.self) { try damaged.withUnsafeBytes { try decoder.decode($0, stamp: stamp) } }
            let frame = try bytes.withUnsafeBytes { try decoder.decode($0, stamp: stamp) }
            #expect(Self.meanAbsoluteDifference(frame, original) < 8)
        }
    }
}
