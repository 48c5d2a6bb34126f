import DockCore
import TestSupport
import Testing

@testable import Perception

@Suite(.tags(.unit)) struct AppearanceSamplerTests {
    /// A 320×240 picture: a face-coloured square over a shirt of `shirt` (BGR), on grey.
    func picture(faceAt x: Int, shirt: [UInt8], faceLevel: UInt8 = 180, format: PixelFormat = .bgr) -> Frame {
        var frame = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: 320, height: 240, format: format, fill: 90)
        func paint(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ bgr: [UInt8]) {
            for y in max(0, y0)..<min(240, y0 + h) {
                for x in max(0, x0)..<min(320, x0 + w) {
                    let o = (y * 320 + x) * format.channels
                    if format == .gray {
                        frame.pixels[o] = bgr[1]
                    } else {
                        for c in 0..<3 { frame.pixels[o + c] = bgr[c] }
                    }
                }
            }
        }
        paint(x, 60, 40, 40, [faceLevel / 2, UInt8(Int(faceLevel) * 3 / 4), faceLevel])
        paint(x - 20, 100, 80, 60, shirt)
        return frame
    }

    func face(at x: Int) -> NormalizedRect {
        ImageCoordinates(size: PixelSize(width: 320, height: 240))
            .normalized(PixelRect(x: Double(x), y: 60, width: 40, height: 40))
    }

    @Test func theSamePersonElsewhereLooksTheSameAndAnotherShirtDoesNot() throws {
        let blue: [UInt8] = [200, 60, 30]
        let red: [UInt8] = [30, 40, 200]
        let here = AppearanceSampler.appearance(ofFace: face(at: 60), in: picture(faceAt: 60, shirt: blue))
        let there = AppearanceSampler.appearance(ofFace: face(at: 200), in: picture(faceAt: 200, shirt: blue))
        let other = AppearanceSampler.appearance(ofFace: face(at: 200), in: picture(faceAt: 200, shirt: red))
        let darker = AppearanceSampler.appearance(
            ofFace: face(at: 200), in: picture(faceAt: 200, shirt: blue, faceLevel: 110))
        #expect(try #require(here.distance(to: there)) < 0.05)
        #expect(try #require(here.distance(to: other)) > 0.5)
        #expect(try #require(here.distance(to: darker)) > 0.5)
        #expect(here.parts.count == 6 && here.parts.allSatisfy { !$0.isEmpty })
    }

    @Test func aTorsoBelowThePictureAndColourInAGreyPictureAreNotSeen() {
        // A face near the bottom edge: the clothes below it are out of the picture.
        let low = ImageCoordinates(size: PixelSize(width: 320, height: 240))
            .normalized(PixelRect(x: 100, y: 200, width: 40, height: 40))
        let edge = AppearanceSampler.appearance(ofFace: low, in: picture(faceAt: 100, shirt: [0, 0, 0]))
        #expect(edge.parts.prefix(3).allSatisfy { !$0.isEmpty } && edge.parts.suffix(3).allSatisfy(\.isEmpty))
        let grey = AppearanceSampler.appearance(
            ofFace: face(at: 60), in: picture(faceAt: 60, shirt: [90, 90, 90], format: .gray))
        #expect(grey.parts.map(\.isEmpty) == [false, true, true, false, true, true])
    }
}
