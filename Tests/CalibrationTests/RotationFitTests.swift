import Foundation
import TestSupport
import Testing

@testable import Calibration

/// The turn fit on exact pinhole moves: it finds the focal length and the angle, on either
/// axis, and leaves out pieces that moved on their own.
@Suite(.tags(.unit)) struct RotationFitTests {
    /// A 6 × 4 grid over a 1280 × 720 picture, moved as a camera of focal length `f` turning
    /// by `angle` moves it.
    func grid(f: Double, angle: Double, axis: TurnAxis) -> [PointMotion] {
        (0..<4).flatMap { row in
            (0..<6).map { column in
                let x = -560 + Double(column) * 224
                let y = -300 + Double(row) * 200
                let moved = RotationFit.predicted(x: x, y: y, focalLength: f, angle: angle, axis: axis)
                return PointMotion(x: x, y: y, movedX: moved.x, movedY: moved.y)
            }
        }
    }

    @Test(arguments: [(1312.0, -0.084, TurnAxis.pan), (700, 0.08, .pan), (2500, 0.05, .tilt), (1000, -0.08, .tilt)])
    func findsTheFocalLengthAndTheAngle(_ f: Double, _ angle: Double, _ axis: TurnAxis) throws {
        let fit = try #require(
            RotationFit.fit(grid(f: f, angle: angle, axis: axis), axis: axis, focalRange: 200...10_000))
        #expect(abs(fit.focalLength / f - 1) < 0.001, "\(fit)")
        #expect(abs(fit.angle - angle) < 1e-5 && fit.residual < 0.01 && fit.points == 24)
    }

    @Test func piecesThatMovedOnTheirOwnAreLeftOut() throws {
        var motions = grid(f: 900, angle: 0.07, axis: .pan)
        // A person walking through two pieces, and noise of a tenth of a pixel on the rest.
        motions[3].movedX += 25
        motions[9].movedY -= 18
        for i in motions.indices { motions[i].movedX += i % 2 == 0 ? 0.1 : -0.1 }
        let fit = try #require(RotationFit.fit(motions, axis: .pan, focalRange: 200...10_000))
        #expect(fit.points == 22 && abs(fit.focalLength / 900 - 1) < 0.02 && abs(fit.angle - 0.07) < 0.001, "\(fit)")
    }

    @Test func aKnownFocalLengthLeavesOnlyTheAngle() throws {
        let fit = try #require(
            RotationFit.fit(
                grid(f: 1100, angle: 0.06, axis: .tilt), axis: .tilt, focalRange: 200...10_000, knownFocalLength: 1100))
        #expect(fit.focalLength == 1100 && abs(fit.angle - 0.06) < 1e-6)
    }
}
