import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@testable import Perception

/// Looking for tracked faces only around themselves between whole scans, and the second look
/// that decodes a small face's surroundings from the frame's kept JPEG.
@Suite(.tags(.unit)) struct FaceRegionTests {
    let registry = ModelRegistry(searchDirectories: Fixtures.modelDirectories)

    static func face(_ x: Double, confirmed: Bool = true) -> DetectionSchedule.Focus {
        DetectionSchedule.Focus(
            rect: NormalizedRect(x: x, y: 0.4, width: 0.1, height: 0.18), kind: .humanFace, hasFace: false,
            isConfirmed: confirmed)
    }

    @Test func wholeScansComeAFewTimesASecondAndWheneverNothingIsTracked() {
        var schedule = DetectionSchedule()
        func plan(_ frame: Int, _ tracking: [DetectionSchedule.Focus], regions: Bool = true) -> [NormalizedRect]? {
            schedule.plan(
                at: MonotonicInstant(seconds: Double(frame) / 30), facesSeenLately: true, tracking: tracking,
                hasBodyDetector: false, hasObjectDetector: false, canSearchRegions: regions
            ).faceRegions
        }
        let two = [Self.face(0.2), Self.face(0.6, confirmed: false)]
        // Nothing tracked: every frame whole.
        #expect((0..<5).allSatisfy { plan($0, []) == nil })
        // Two faces (one tentative, looked for too): around them until 0.1 s have passed since
        // the last whole scan (frame 4), then whole at frames 7, 10, 13.
        let planned = (5..<15).map { plan($0, two) }
        #expect(planned.map { $0 == nil } == [false, false, true, false, false, true, false, false, true, false])
        #expect(planned[0] == two.map(\.rect))
        // A caller that cannot search regions, too many faces, or an interval of 0: always whole.
        #expect(plan(16, two, regions: false) == nil && plan(17, two, regions: false) == nil)
        let five = (0..<5).map { Self.face(Double($0) * 0.18) }
        #expect(plan(18, five) == nil && plan(19, five) == nil)
        schedule.wholeFrameInterval = 0
        #expect(plan(20, two) == nil && plan(21, two) == nil)
    }

    @Test func aTentativeFaceGetsNoSecondLookWhileAFaceIsConfirmed() {
        var schedule = DetectionSchedule()
        let small = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.5, y: 0.5, width: 0.02, height: 0.03), kind: .humanFace, hasFace: false,
            isConfirmed: false)
        let big = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.1, y: 0.4, width: 0.1, height: 0.18), kind: .humanFace, hasFace: false)
        let plan = schedule.plan(
            at: .zero, facesSeenLately: true, tracking: [small, big], hasBodyDetector: false,
            hasObjectDetector: false, canSearchTiles: true)
        #expect(plan.secondLooks.isEmpty && plan.search == nil)
    }

    @Test func withNoFaceConfirmedTilesAreSearchedInTurnThenTheTentativeFaceFoundThere() {
        var schedule = DetectionSchedule()
        func looks(_ frame: Int, _ tracking: [DetectionSchedule.Focus], tiles: Bool = true) -> [NormalizedRect] {
            let plan = schedule.plan(
                at: MonotonicInstant(seconds: Double(frame) / 30), facesSeenLately: false, tracking: tracking,
                hasBodyDetector: false, hasObjectDetector: false, canSearchTiles: tiles)
            return plan.secondLooks + [plan.search].compactMap { $0 }
        }
        // Eight tiles, one every other frame, then round again; together they cover the frame,
        // and each overlaps its neighbour by a quarter of its width.
        let planned = (0..<18).map { looks($0, []) }
        #expect(planned.enumerated().allSatisfy { $0.element.count == ($0.offset % 2 == 0 ? 1 : 0) })
        let tiles = planned.filter { !$0.isEmpty }
        #expect(tiles[8] == tiles[0] && Set(tiles.prefix(8).map { "\($0[0])" }).count == 8)
        let union = tiles.prefix(8).map { $0[0] }
        for x in stride(from: 0.01, to: 1, by: 0.05) {
            for y in stride(from: 0.01, to: 1, by: 0.05) {
                #expect(union.contains { $0.contains(x: x, y: y) }, "(\(x), \(y)) is in no tile")
            }
        }
        #expect(abs(union[0].maxX - union[1].x - union[0].width / 4) < 1e-9)
        // A tentative small face: the look goes around it instead.
        let found = NormalizedRect(x: 0.6, y: 0.3, width: 0.03, height: 0.05)
        let tentative = DetectionSchedule.Focus(rect: found, kind: .humanFace, hasFace: false, isConfirmed: false)
        let around = looks(19, [tentative])
        #expect(around.count == 1 && around[0].contains(x: found.midX, y: found.midY) && around[0].width < 0.2)
        // A caller whose second look sees no finer pixels does not search.
        #expect(looks(21, [], tiles: false).isEmpty)
    }

    @Test func theMosaicPlacesEachRegionAndMapsBack() throws {
        var frame = Frame(stamp: FrameStamp(sequence: 4, time: .zero), width: 320, height: 180, format: .bgr, fill: 0)
        // A red and a blue square; regions around them, one cut by the frame's edge.
        frame.drawRect(
            PixelRect(x: 40, y: 40, width: 40, height: 40), color: Color(red: 255, green: 0, blue: 0), thickness: -1)
        frame.drawRect(
            PixelRect(x: 250, y: 120, width: 60, height: 60), color: Color(red: 0, green: 0, blue: 255), thickness: -1)
        let regions = [
            PixelRect(x: 20, y: 20, width: 80, height: 80), PixelRect(x: 240, y: 110, width: 100, height: 100),
        ]
        let mosaic = try #require(Mosaic(frame: frame, regions: regions, tileSide: 96))
        #expect(mosaic.image.size == PixelSize(width: 192, height: 96) && mosaic.image.stamp == frame.stamp)
        #expect(mosaic.tiles.count == 2)
        // The second region was clamped to 80x70 and copied as it is.
        #expect(mosaic.tiles[1].region == PixelRect(x: 240, y: 110, width: 80, height: 70))
        #expect(mosaic.tiles[1].fitted == PixelSize(width: 80, height: 70) && mosaic.tiles[1].scale == 1)
        func pixel(_ image: Frame, _ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * image.width + x) * 3
            return Array(image.pixels[i..<i + 3])
        }
        #expect(pixel(mosaic.image, 48, 48) == [0, 0, 255], "the red square in tile 0 (BGR)")
        #expect(pixel(mosaic.image, 96 + 60, 50) == [255, 0, 0], "the blue square in tile 1")
        #expect(pixel(mosaic.image, 96 + 40, 80) == [0, 0, 0], "below tile 1's picture: black")
        // The red square's box in the mosaic comes back to where it is in the frame.
        let tile = try #require(mosaic.tile(containing: PixelPoint(x: 48, y: 48)))
        #expect(
            mosaic.toFrame(PixelRect(x: 20, y: 20, width: 40, height: 40), in: tile)
                == PixelRect(x: 40, y: 40, width: 40, height: 40))
        #expect(mosaic.tile(containing: PixelPoint(x: 96 + 40, y: 80)) == nil)
        #expect(Mosaic(frame: frame, regions: [PixelRect(x: 400, y: 0, width: 10, height: 10)], tileSide: 96) == nil)
        // Shrunk by 2: one region alone makes a one-tile mosaic, its box mapped back twice as large.
        let half = try #require(Mosaic(frame: frame, regions: [regions[0]], tileSide: 48, scale: 2))
        #expect(
            half.image.size == PixelSize(width: 48, height: 48)
                && half.tiles[0].fitted == PixelSize(width: 40, height: 40))
        #expect(pixel(half.image, 20, 20) == [0, 0, 255])
        #expect(
            half.toFrame(PixelRect(x: 10, y: 10, width: 20, height: 20), in: half.tiles[0])
                == PixelRect(x: 40, y: 40, width: 40, height: 40))
    }

    @Test func squaresLieOnTheNetworksGridAtTheWholeScansScale() throws {
        let frame = Frame(stamp: FrameStamp(sequence: 0, time: .zero), width: 640, height: 360, format: .bgr)
        let coordinates = ImageCoordinates(size: frame.size)
        let face = coordinates.normalized(PixelRect(x: 300, y: 150, width: 60, height: 70))
        // A 640-wide frame the whole scan shrinks to 320: a 35-pixel face there gets a square
        // of 128 (256 frame pixels) on the 32-pixel grid (64 frame pixels), the nearest point.
        let squares = try #require(DetectionStage.squares(around: [face], in: frame, wholeScanWidth: 320))
        #expect(squares == .init(regions: [PixelRect(x: 192, y: 64, width: 256, height: 256)], side: 128, scale: 2))
        // Faces of 32 pixels or less: squares of 96 on the 16-pixel grid.
        let small = coordinates.normalized(PixelRect(x: 100, y: 200, width: 40, height: 50))
        let both = try #require(DetectionStage.squares(around: [small], in: frame, wholeScanWidth: 320))
        #expect(both == .init(regions: [PixelRect(x: 32, y: 128, width: 192, height: 192)], side: 96, scale: 2))
        // Every face keeps 20 pixels of the scanned image from each edge, wherever it is.
        for x in stride(from: 100.0, to: 400, by: 7) {
            for width in [10.0, 32, 40, 56] {
                let r = PixelRect(x: x, y: 100, width: width, height: width)
                let square = try #require(
                    DetectionStage.squares(around: [coordinates.normalized(r)], in: frame, wholeScanWidth: 640)
                ).regions[0]
                #expect(r.x - square.x >= 20 && square.maxX - r.maxX >= 20, "\(r) in \(square)")
            }
        }
        // A face larger than 56 pixels of the scanned image: no squares, the whole frame instead.
        let large = coordinates.normalized(PixelRect(x: 100, y: 50, width: 120, height: 140))
        #expect(DetectionStage.squares(around: [face, large], in: frame, wholeScanWidth: 320) == nil)
    }

    /// The astronaut at 1280x720 as a camera would send it, decoded at 1/4 with its JPEG kept.
    func astronautFrame(sprite side: Int, at corner: PixelPoint) throws -> (small: Frame, face: PixelRect) {
        let photo = try Fixtures.photo("astronaut.png")
        let sprite = try photo.resized(to: PixelSize(width: 4 * side, height: 4 * side))
        var frame = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: 1280, height: 720, format: .bgr, fill: 128)
        try frame.blend(
            sprite, alpha: nil,
            into: PixelRect(x: corner.x, y: corner.y, width: Double(4 * side), height: Double(4 * side)))
        let path = Fixtures.temporaryDirectory("regions") + "/frame.jpg"
        try frame.write(to: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let small = try bytes.withUnsafeBytes {
            try JPEGDecoder().decode(
                $0, scale: .quarter, stamp: FrameStamp(sequence: 0, time: .zero), keepingDetail: true)
        }
        // The labelled face, in the small frame's pixels.
        let k = Double(side) / 512
        let f = AstronautLabel.face
        return (
            small,
            PixelRect(x: corner.x / 4 + f.x * k, y: corner.y / 4 + f.y * k, width: f.width * k, height: f.height * k)
        )
    }

    @Test func regionsFindTheTrackedFaceAsTheWholeScanDoes() throws {
        let (small, label) = try astronautFrame(sprite: 100, at: PixelPoint(x: 500, y: 200))
        let stage = DetectionStage(
            faces: try YuNetFaceDetector(modelPath: registry.resolve("yunet")),
            regionFaces: try YuNetFaceDetector(modelPath: registry.resolve("yunet"), inputWidth: 256))
        let whole = stage.detect(small)
        #expect(whole.plan.faceRegions == nil)
        let face = try #require(whole.detections.first)
        #expect(face.rect.intersectionOverUnion(label) > 0.5)
        let focus = DetectionSchedule.Focus(
            rect: ImageCoordinates(size: small.size).normalized(face.rect), kind: .humanFace, hasFace: false)
        var next = small
        next.stamp = FrameStamp(sequence: 1, time: MonotonicInstant(seconds: 1.0 / 30))
        let around = stage.detect(next, tracking: [focus])
        #expect(around.plan.faceRegions?.count == 1 && stage.regionFrames == 1)
        let found = try #require(around.detections.first)
        // The same pixels on the same grid: the box the whole scan gave.
        #expect(found.rect.intersectionOverUnion(face.rect) > 0.95, "\(found.rect) against \(face.rect)")
        #expect(found.landmarks.count == 5 && found.imageSize == small.size && found.stamp == next.stamp)
        #expect(around.durations["yunet regions"] != nil && around.durations["yunet"] == nil)
        // A tracked face too large for a square: this frame is scanned whole after all.
        let large = DetectionSchedule.Focus(
            rect: NormalizedRect(x: 0.2, y: 0.2, width: 0.3, height: 0.5), kind: .humanFace, hasFace: false)
        next.stamp = FrameStamp(sequence: 2, time: MonotonicInstant(seconds: 2.0 / 30))
        let whole2 = stage.detect(next, tracking: [focus, large])
        #expect(whole2.plan.faceRegions != nil && whole2.durations["yunet"] != nil && stage.regionFrames == 1)
    }

    @Test func secondLookDecodesASmallFaceFromTheKeptJPEG() throws {
        // A 104-pixel astronaut in the 1280x720 picture: a 26-pixel sprite and a face of about
        // 7 pixels in the 320-wide frame, too small to find there.
        let (small, rect) = try astronautFrame(sprite: 26, at: PixelPoint(x: 600, y: 300))
        let yunet = try YuNetFaceDetector(modelPath: registry.resolve("yunet"))
        #expect(try yunet.detect(small).isEmpty)
        let stage = DetectionStage(faces: yunet)
        let focus = DetectionSchedule.Focus(
            rect: ImageCoordinates(size: small.size).normalized(rect), kind: .humanFace, hasFace: false)
        let result = stage.detect(small, tracking: [focus])
        #expect(result.plan.secondLooks.count == 1)
        let found = try #require(result.detections.first)
        #expect(found.rect.intersectionOverUnion(rect) > 0.3, "\(found.rect)")
        var plain = small
        plain.detail = nil
        let without = DetectionStage(faces: yunet).detect(plain, tracking: [focus])
        #expect(without.detections.isEmpty, "the frame's own pixels are too few")
    }
}
