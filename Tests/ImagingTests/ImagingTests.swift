import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@Suite(.tags(.unit)) struct ImagingTests {
    @Test func readsPhotosInBothFormats() throws {
        let color = try Fixtures.photo("astronaut.png")
        #expect(color.size == PixelSize(width: 512, height: 512) && color.format == .bgr)
        let gray = try Fixtures.photo("astronaut.png", format: .gray)
        #expect(gray.format == .gray && gray.pixels.count == 512 * 512)
    }

    @Test func missingImageIsAClearError() {
        #expect {
            try Frame.read(contentsOf: "/nonexistent/photo.png")
        } throws: { error in
            (error as? ImagingError)?.description.contains("cannot read image /nonexistent/photo.png") == true
        }
    }

    /// The preview's JPEG (libturbojpeg) read back by another decoder (OpenCV's, through the
    /// media library) is the same picture.
    @Test(arguments: [PixelFormat.bgr, .gray])
    func jpegDataDecodesToTheSamePicture(_ format: PixelFormat) throws {
        let photo = try Fixtures.photo("astronaut.png", format: format)
        let bytes = try photo.jpegData(quality: 90)
        #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.count < photo.pixels.count / 4)
        let path = Fixtures.temporaryDirectory("jpeg") + "/astronaut.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let back = try Frame.read(contentsOf: path, format: format)
        #expect(back.size == photo.size)
        let difference = zip(back.pixels, photo.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(photo.pixels.count) < 4, "mean absolute difference per sample")
    }

    @Test func identityWarpCopiesAndOutsideIsBorder() throws {
        let photo = try Fixtures.photo("coffee.png")
        let same = try photo.warped(to: photo.size, homography: [1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(same.pixels == photo.pixels)
        let shifted = try photo.warped(to: photo.size, homography: [1, 0, 10_000, 0, 1, 0, 0, 0, 1], border: 7)
        #expect(shifted.pixels.allSatisfy { $0 == 7 })
    }

    @Test func blendHonoursAlphaAndClips() throws {
        var canvas = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: 100, height: 100, format: .gray, fill: 0)
        let sprite = Frame(stamp: canvas.stamp, width: 10, height: 10, format: .gray, fill: 200)
        var alpha = Frame(stamp: canvas.stamp, width: 10, height: 10, format: .gray, fill: 255)
        try canvas.blend(sprite, alpha: alpha, into: PixelRect(x: 95, y: 95, width: 10, height: 10))
        #expect(canvas.pixels[99 * 100 + 99] == 200)
        #expect(canvas.pixels[94 * 100 + 94] == 0)
        alpha = Frame(stamp: canvas.stamp, width: 10, height: 10, format: .gray, fill: 0)
        try canvas.blend(sprite, alpha: alpha, into: PixelRect(x: 0, y: 0, width: 10, height: 10))
        #expect(canvas.pixels[5 * 100 + 5] == 0)
    }

    @Test func mismatchedChannelsAreRefusedByTheShim() {
        let gray = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: 8, height: 8, format: .gray)
        var color = Frame(stamp: gray.stamp, width: 8, height: 8, format: .bgr)
        #expect(throws: ImagingError.self) {
            try color.blend(gray, alpha: nil, into: PixelRect(x: 0, y: 0, width: 8, height: 8))
        }
    }

    /// Tests that give a sanitized build more time know it is one the same way the heap figure
    /// does (a sanitizer's allocator replaced glibc's): two independent signs agree.
    @Test func aSanitizedBuildIsRecognised() {
        #expect(Sanitizer.isActive == (Imaging.heapBytesInUse() == nil))
    }
}
