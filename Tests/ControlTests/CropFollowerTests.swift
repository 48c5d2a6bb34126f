import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

@Suite(.tags(.unit)) struct CropFollowerTests {
    /// A face of `height` (unit terms) centred at (x, y).
    static func face(_ x: Double, _ y: Double, height: Double = 0.1) -> NormalizedRect {
        NormalizedRect(x: x - height / 2, y: y - height / 2, width: height, height: height)
    }

    /// Runs at 30 Hz for `seconds` with faces given by time; returns the crops.
    static func run(
        _ follower: inout CropFollower, from start: Double = 0, seconds: Double, placementX: Double = 0.5,
        region: NormalizedRect = NormalizedRect(x: 0, y: 0, width: 1, height: 1), faces: (Double) -> [NormalizedRect]
    ) -> [NormalizedRect] {
        stride(from: start, to: start + seconds, by: 1.0 / 30).map { t in
            follower.update(faces: faces(t), time: t, placementX: placementX, region: region)
        }
    }

    @Test func aStillSubjectWithNoisyBoxesNeverMovesTheSettledCrop() {
        var follower = CropFollower()
        _ = Self.run(&follower, seconds: 4) { _ in [Self.face(0.6, 0.55)] }
        var random = SeededGenerator(seed: 7)
        func jitter(_ size: Double) -> Double { Double.random(in: -size...size, using: &random) }
        // Boxes wobbling by ±1 % of the frame, as a detector's do: the crop stays exactly still.
        let crops = Self.run(&follower, from: 4, seconds: 6) { _ in
            [Self.face(0.6 + jitter(0.01), 0.55 + jitter(0.01), height: 0.1 + jitter(0.005))]
        }
        #expect(Set(crops.map(\.x)).count == 1 && Set(crops.map(\.y)).count == 1 && Set(crops.map(\.width)).count == 1)
        #expect(follower.zoomChanges == 1)
    }

    @Test func theCropZoomsToHeadAndShouldersAndFramesTheFaceOnTheEyeLine() throws {
        var follower = CropFollower()
        let crop = try #require(Self.run(&follower, seconds: 5) { _ in [Self.face(0.6, 0.55, height: 0.15)] }.last)
        // A face 0.15 high is a quarter of the crop: the crop is 0.6 of the frame.
        #expect(abs(crop.width - 0.6) < 0.01 && abs(crop.height - crop.width) < 1e-12)
        #expect(abs(crop.midX - 0.6) < 0.01)
        #expect(abs((0.55 - crop.y) / crop.height - 0.62) < 0.02)
    }

    @Test func aSmallFaceNeverZoomsBeyondTheLimit() throws {
        var settings = CropFollower.Settings()
        settings.maximumZoom = 2
        var follower = CropFollower(settings: settings)
        let crop = try #require(Self.run(&follower, seconds: 6) { _ in [Self.face(0.5, 0.5, height: 0.02)] }.last)
        #expect(abs(crop.width - 0.5) < 1e-6)
        #expect(follower.zoom <= 2 + 1e-9)
    }

    @Test func aMovedSubjectIsFollowedWithoutOvershootAndTheCropStops() throws {
        var follower = CropFollower()
        _ = Self.run(&follower, seconds: 4) { _ in [Self.face(0.4, 0.55)] }
        let crops = Self.run(&follower, from: 4, seconds: 4) { _ in [Self.face(0.7, 0.55)] }
        let centres = crops.map(\.midX)
        // Monotonic approach, no overshoot, and at rest at the end.
        #expect(zip(centres, centres.dropFirst()).allSatisfy { $1 >= $0 - 1e-12 })
        #expect(centres.max()! <= 0.7 + 1e-9)
        #expect(abs(centres.last! - 0.7) < 0.005)
        #expect(centres.suffix(15).allSatisfy { $0 == centres.last! })
        // Eased: no step from one frame to the next larger than the speed cap allows.
        let steps = zip(centres, centres.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! <= CropFollower.Settings().maximumSpeed * crops.last!.width / 30 + 1e-9)
    }

    @Test func theFramingModeAndTheRegionOfInterestApplyToTheCrop() throws {
        var left = CropFollower()
        let leftCrop = try #require(
            Self.run(&left, seconds: 5, placementX: 1.0 / 3) { _ in [Self.face(0.5, 0.5)] }.last)
        #expect(abs((0.5 - leftCrop.x) / leftCrop.width - 1.0 / 3) < 0.02)
        var kept = CropFollower()
        let region = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let inside = try #require(Self.run(&kept, seconds: 5, region: region) { _ in [Self.face(0.45, 0.5)] }.last)
        #expect(inside.x >= 0.5 - 1e-9 && inside.maxX <= 1 + 1e-9)
    }

    @Test func aGroupIsFramedWholeAndALostSubjectWidensToTheWholeFrameAfterAHold() throws {
        var follower = CropFollower()
        let group = try #require(
            Self.run(&follower, seconds: 5) { _ in [Self.face(0.3, 0.5), Self.face(0.6, 0.5)] }.last)
        #expect(group.x < 0.25 && group.maxX > 0.65)
        let held = Self.run(&follower, from: 5, seconds: 1.5) { _ in [] }
        #expect(held.allSatisfy { $0 == group })
        let widened = try #require(Self.run(&follower, from: 6.5, seconds: 5) { _ in [] }.last)
        #expect(abs(widened.width - 1) < 1e-6 && abs(widened.x) < 1e-6)
    }

    @Test func theCropStaysInsideTheFrameWhileItZoomsOutFromAnEdge() {
        var follower = CropFollower()
        let framed = Self.run(&follower, seconds: 5) { _ in [Self.face(0.06, 0.9)] }
        let widening = Self.run(&follower, from: 5, seconds: 6) { _ in [] }
        for crop in framed + widening {
            #expect(crop.x >= 0 && crop.y >= 0 && crop.maxX <= 1 + 1e-12 && crop.maxY <= 1 + 1e-12, "\(crop)")
        }
        #expect(abs(widening.last!.width - 1) < 1e-9)
    }
}
