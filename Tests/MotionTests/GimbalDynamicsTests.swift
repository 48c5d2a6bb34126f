import DockCore
import Foundation
import TestSupport
import Testing

@testable import Motion

@Suite(.tags(.unit)) struct GimbalDynamicsTests {
    let model = GimbalModel(
        maximumSpeed: 2, maximumAcceleration: 10, latency: 0.05, speedStep: 0,
        yawRange: -1...1, pitchRange: -0.5...0.5)

    @Test func commandTakesEffectAfterTheLatency() {
        var g = GimbalDynamics(model: model)
        g.command(Vector3D(x: 0, y: 1, z: 0), at: .zero)
        g.advance(to: MonotonicInstant(seconds: 0.049))
        #expect(g.velocity.y == 0 && g.position.y == 0)
        g.advance(to: MonotonicInstant(seconds: 0.06))
        #expect(g.velocity.y > 0)
    }

    @Test func accelerationAndSpeedAreLimited() {
        var g = GimbalDynamics(model: model)
        g.command(Vector3D(x: 0, y: 5, z: 0), at: .zero)  // more than the top speed
        g.advance(to: MonotonicInstant(seconds: 0.15))  // 0.1 s of acceleration after latency
        #expect(abs(g.velocity.y - 1.0) < 0.011)
        g.advance(to: MonotonicInstant(seconds: 0.5))
        #expect(abs(g.velocity.y - 2.0) < 1e-9)
    }

    @Test func hardStopAtTheEndOfTravel() {
        var g = GimbalDynamics(model: model)
        g.command(Vector3D(x: 1, y: 2, z: 0), at: .zero)
        g.advance(to: MonotonicInstant(seconds: 3))
        #expect(g.position.y == 1 && g.velocity.y == 0)
        #expect(g.position.x == 0.5 && g.velocity.x == 0)
    }

    @Test func speedIsQuantisedLikeAVISCAHead() {
        var m = model
        m.speedStep = 0.1
        var g = GimbalDynamics(model: m)
        g.command(Vector3D(x: 0.04, y: 0.26, z: 0), at: .zero)
        g.advance(to: MonotonicInstant(seconds: 1))
        #expect(abs(g.velocity.y - 0.3) < 1e-9 && g.velocity.x == 0)
    }

    @Test func laterCommandReplacesPendingOnes() {
        var g = GimbalDynamics(model: model)
        g.command(Vector3D(x: 0, y: 1, z: 0), at: .zero)
        g.command(Vector3D(), at: MonotonicInstant(seconds: 0.01))
        g.advance(to: MonotonicInstant(seconds: 0.2))
        // The first command ran for 0.01 s (up to 0.1 rad/s at 10 rad/s²) before the stop took
        // over and braked for another 0.01 s: a = 10, so 2 × ½·a·t² = 0.001 rad in all.
        #expect(abs(g.position.y - 0.001) < 1e-4 && g.velocity.y == 0)
    }
}
