import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

@Suite(.tags(.unit)) struct SubjectMotionEstimateTests {
    let degree = Double.pi / 180

    /// Box jitter of about ±0.3° (a detector's), repeatable.
    func jitter(_ i: Int) -> Double { sin(Double(i) * 2.39) * 0.3 * degree }

    @Test func aSlowSteadyWalkIsMotionAtItsRate() {
        var estimate = SubjectMotionEstimate()
        var moving: [Bool] = []
        for i in 0..<90 {
            let t = Double(i) / 30
            estimate.add(angle: 2.5 * degree * t + jitter(i), at: t)
            moving.append(estimate.isMoving)
        }
        #expect(!moving[5], "a fraction of a second is not enough to tell")
        #expect(moving[30...].allSatisfy { $0 })
        #expect(abs(estimate.rate / degree - 2.5) < 0.3, "\(estimate.rate / degree)°/s")
        // Along the line, a little ahead.
        let ahead = estimate.direction(at: 3.1)!
        #expect(abs(ahead / degree - 2.5 * 3.1) < 0.3)
    }

    @Test func aStillSubjectWithJitterIsNotMotion() {
        var estimate = SubjectMotionEstimate()
        for i in 0..<150 {
            let t = Double(i) / 30
            estimate.add(angle: 4 * degree + 2.5 * jitter(i), at: t)
            #expect(!estimate.isMoving, "frame \(i)")
        }
        #expect(estimate.rate == 0)
        #expect(abs(estimate.direction(at: 5)! / degree - 4) < 0.5)
        #expect(estimate.jitter > 0.3 * degree, "the jitter is measured: \(estimate.jitter / degree)°")
    }

    /// A face wobbling about a hand-held frame (3° either way, a swing a second) goes back within
    /// the window: it is not followed as steady motion most of the time.
    @Test func aWobbleIsMostlyNotMotion() {
        var estimate = SubjectMotionEstimate()
        var moving = 0
        for i in 0..<300 {
            let t = Double(i) / 30
            estimate.add(angle: 3 * degree * sin(2 * .pi * t), at: t)
            if estimate.isMoving { moving += 1 }
        }
        #expect(moving < 150, "moving in \(moving) of 300 frames")
    }

    @Test func aJumpStartsTheEstimateAgain() {
        var estimate = SubjectMotionEstimate()
        for i in 0..<30 { estimate.add(angle: 3 * degree * Double(i) / 30, at: Double(i) / 30) }
        #expect(estimate.isMoving)
        let jumped = estimate.add(angle: 20 * degree, at: 1.0)
        #expect(jumped, "a 17° jump in a frame")
        #expect(!estimate.isMoving)
        #expect(estimate.direction(at: 1.0) == 20 * degree)
        // Seen again after a gap: the old line is forgotten, without calling it a jump.
        let jumpedAgain = estimate.add(angle: -5 * degree, at: 2.0)
        #expect(!jumpedAgain)
        #expect(estimate.direction(at: 2.0) == -5 * degree)
    }
}
