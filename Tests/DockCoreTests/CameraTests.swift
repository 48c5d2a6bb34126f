import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.unit)) struct CameraTests {
    @Test func fieldOfViewGivesFocalLength() {
        let k = CameraIntrinsics(horizontalFieldOfView: .pi / 2, size: PixelSize(width: 1000, height: 500))
        #expect(abs(k.fx - 500) < 1e-9 && k.fx == k.fy)
        #expect(k.cx == 500 && k.cy == 250)
        #expect(abs(k.horizontalFieldOfView - .pi / 2) < 1e-12)
    }

    @Test func rayAndProjectionAreInverse() throws {
        let k = CameraIntrinsics(fx: 900, fy: 910, cx: 640, cy: 360)
        let p = PixelPoint(x: 1000, y: 100)
        let back = try #require(k.project(k.ray(through: p)))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        #expect(k.project(Vector3D(x: 0, y: 0, z: -1)) == nil)
    }

    @Test func scalingFollowsTheImage() {
        let k = CameraIntrinsics(horizontalFieldOfView: 1, size: PixelSize(width: 1280, height: 720))
        let half = k.scaled(from: PixelSize(width: 1280, height: 720), to: PixelSize(width: 640, height: 360))
        #expect(abs(half.fx - k.fx / 2) < 1e-9 && half.cx == 320 && half.cy == 180)
        #expect(abs(half.horizontalFieldOfView - 1) < 1e-12)
    }

    @Test func limitsRefuseInvalidRanges() {
        #expect(throws: DockKitError.invalidParameter) { try AxisLimit(positionRange: 1..<1, maximumSpeed: 1) }
        #expect(throws: DockKitError.invalidParameter) { try AxisLimit(positionRange: 0..<1, maximumSpeed: -0.1) }
        // A top speed of 0 holds the axis (Apple refuses only negative ones).
        #expect(throws: Never.self) { try AxisLimit(positionRange: 0..<1, maximumSpeed: 0) }
        #expect(throws: DockKitError.invalidParameter) {
            try AxisLimit(positionRange: 0..<Double.infinity, maximumSpeed: 1)
        }
        #expect(throws: Never.self) { try AxisLimit(positionRange: -1..<1, maximumSpeed: 2) }
    }

    @Test func manualClockMovesOnlyWhenTold() {
        let clock = ManualClock()
        #expect(clock.now == .zero)
        clock.advance(bySeconds: 0.25)
        #expect(clock.now.nanoseconds == 250_000_000)
        #expect(abs(clock.now.seconds(since: .zero) - 0.25) < 1e-12)
    }

    @Test func systemClockIsMonotonic() {
        let clock = SystemMonotonicClock()
        let a = clock.now
        let b = clock.now
        #expect(b >= a)
    }
}
