import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

/// Regions decoded from a frame's kept JPEG: the same pixels as a whole decode, mapped back to
/// the small frame exactly, and refused cleanly when the data or the rectangle is wrong.
@Suite(.tags(.unit)) struct JPEGDetailTests {
    static let stamp = FrameStamp(sequence: 3, time: MonotonicInstant(seconds: 2))

    func detail(_ size: PixelSize = PixelSize(width: 1280, height: 720)) throws -> (JPEGDetail, [UInt8]) {
        let bytes = try CameraFixtures.jpeg(size: size)
        return (JPEGDetail(data: bytes, fullSize: size), bytes)
    }

    static func meanAbsoluteDifference(_ a: Frame, _ b: Frame) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    @Test(arguments: [1, 2, 4])
    func aRegionIsTheWholeDecodeCropped(scale: Int) throws {
        let (detail, bytes) = try detail()
        let whole = try bytes.withUnsafeBytes {
            try JPEGDecoder().decode($0, scale: DecodeScale(rawValue: scale)!, stamp: Self.stamp)
        }
        // Corners off the 8- and 16-pixel block grid, so cropping and skipping both have work.
        let rect = PixelRect(x: Double(203 / scale), y: Double(133 / scale), width: Double(301 / scale), height: 77)
        let region = try #require(detail.region(rect, scale: scale, format: .bgr))
        #expect(region.width == Int(rect.width) && region.height == 77)
        let reference = try #require(whole.cropped(to: rect)).frame
        #expect(Self.meanAbsoluteDifference(region, reference) < 0.5)
        let gray = try #require(detail.region(rect, scale: scale, format: .gray))
        #expect(gray.format == .gray && gray.pixels.count == region.width * region.height)
    }

    /// nil, said without printing a frame's pixels when it is not.
    static func refused(_ frame: Frame?) -> Bool { frame == nil }

    @Test func rectanglesOutsideThePictureAndBrokenDataAreRefused() throws {
        let (detail, bytes) = try detail()
        #expect(Self.refused(detail.region(PixelRect(x: 1200, y: 0, width: 100, height: 10), scale: 1, format: .bgr)))
        #expect(Self.refused(detail.region(PixelRect(x: 0, y: 700, width: 10, height: 30), scale: 1, format: .bgr)))
        #expect(Self.refused(detail.region(PixelRect(x: 0, y: 0, width: 10, height: 10), scale: 3, format: .bgr)))
        #expect(Self.refused(detail.region(PixelRect(x: 10, y: 10, width: 311, height: 170), scale: 4, format: .bgr)))
        let garbage = JPEGDetail(data: [0xFF, 0xD8, 1, 2, 3, 4], fullSize: detail.fullSize)
        #expect(Self.refused(garbage.region(PixelRect(x: 0, y: 0, width: 8, height: 8), scale: 1, format: .bgr)))
        #expect(!JPEGDetail.lastError.isEmpty)
        // Cut off after the header: the rows below are missing.
        let truncated = JPEGDetail(data: Array(bytes.prefix(bytes.count / 3)), fullSize: detail.fullSize)
        #expect(Self.refused(truncated.region(PixelRect(x: 0, y: 600, width: 64, height: 64), scale: 1, format: .bgr)))
    }

    @Test func aQuarterScaleFrameKeepsItsPictureAndMapsRegionsBack() throws {
        let size = PixelSize(width: 1280, height: 720)
        let bytes = try CameraFixtures.jpeg(size: size)
        let small = try bytes.withUnsafeBytes {
            try JPEGDecoder().decode($0, scale: .quarter, stamp: Self.stamp, keepingDetail: true)
        }
        #expect(small.size == PixelSize(width: 320, height: 180) && small.detail?.fullSize == size)
        let full = try bytes.withUnsafeBytes { try JPEGDecoder().decode($0, scale: .full, stamp: Self.stamp) }
        #expect(full.detail == nil, "a full-size decode has nothing finer to keep")
        // A 40x30 area of the small frame comes back at full resolution (4x) from the JPEG.
        let area = PixelRect(x: 101.5, y: 60.25, width: 40, height: 30)
        let crop = try #require(small.detailedCrop(area))
        #expect(crop.scaleX == 0.25 && crop.scaleY == 0.25 && crop.frame.stamp == Self.stamp)
        #expect(crop.frame.width == 160 && crop.frame.height == 120)
        #expect(crop.origin == PixelPoint(x: 101.5, y: 60.25))
        let back = crop.toFrame(
            PixelRect(x: 0, y: 0, width: Double(crop.frame.width), height: Double(crop.frame.height)))
        #expect(abs(back.x - 101.5) < 1e-9 && abs(back.maxX - 141.5) < 1e-9)
        let expected = try #require(full.cropped(to: PixelRect(x: 406, y: 241, width: 160, height: 120))).frame
        #expect(Self.meanAbsoluteDifference(crop.frame, expected) < 0.5)
        // Asking for no more than 60 pixels across takes the half-scale picture.
        let coarse = try #require(small.detailedCrop(area, minimumWidth: 60))
        #expect(coarse.scaleX == 0.5 && coarse.frame.width == 80)
        // Without a detail the frame's own pixels are the finest.
        var plain = small
        plain.detail = nil
        let own = try #require(plain.detailedCrop(area))
        #expect(own.scaleX == 1 && own.frame.width == 41 && own.origin == PixelPoint(x: 101, y: 60))
    }

    @Test func theViewingPictureComesFromTheDetail() throws {
        let size = PixelSize(width: 1280, height: 720)
        let bytes = try CameraFixtures.jpeg(size: size)
        let small = try bytes.withUnsafeBytes {
            try JPEGDecoder().decode($0, scale: .quarter, stamp: Self.stamp, keepingDetail: true)
        }
        let viewing = Frame.viewingSize(of: small.size)
        #expect(viewing == PixelSize(width: 640, height: 360))
        #expect(Frame.viewingSize(of: PixelSize(width: 640, height: 360)) == PixelSize(width: 640, height: 360))
        let picture = small.picture(at: viewing)
        let half = try bytes.withUnsafeBytes { try JPEGDecoder().decode($0, scale: .half, stamp: Self.stamp) }
        #expect(picture.size == viewing && picture.stamp == Self.stamp)
        #expect(Self.meanAbsoluteDifference(picture, half) < 0.5, "decoded at 1/2, not the small frame enlarged")
        var plain = small
        plain.detail = nil
        let enlarged = plain.picture(at: viewing)
        #expect(enlarged.size == viewing && Self.meanAbsoluteDifference(enlarged, half) > 0.5)
    }
}
