import DockCore
import Testing

@testable import Control

@Suite(.tags(.unit)) struct CommandsInFlightTests {
    @Test func travelIsTheCommandsOfTheLastLatencyIntegrated() throws {
        var inFlight = CommandsInFlight()
        // 1 rad/s from 0 to 0.1 s, 2 rad/s from 0.1 s, at 10 commands a second.
        for i in 0...3 {
            let t = Double(i) / 10
            inFlight.record(Vector3D(x: 0, y: t < 0.1 ? 1 : 2, z: 0), at: t, horizon: 0.15)
        }
        // At 0.3 s with 0.15 s of latency: commands from 0.15 s to 0.3 s, all at 2 rad/s.
        let late = try #require(inFlight.travel(at: 0.3, latency: 0.15))
        #expect(abs(late.y - 0.3) < 1e-9)
        // At 0.3 s with 0.25 s: 0.05 s of 1 rad/s (0.05 to 0.1) then 0.2 s of 2 rad/s; but the
        // horizon kept only what 0.15 s needs, so it does not reach back that far.
        #expect(inFlight.travel(at: 0.3, latency: 0.25) == nil)
    }

    @Test func aMixOfCommandsIsWeighedByHowLongEachWasInForce() throws {
        var inFlight = CommandsInFlight()
        for (t, v) in [(0.0, 0.0), (0.1, 1.0), (0.2, -1.0), (0.22, 3.0)] {
            inFlight.record(Vector3D(x: v, y: 0, z: 0), at: t, horizon: 0.5)
        }
        let travel = try #require(inFlight.travel(at: 0.3, latency: 0.25))
        // 0.05–0.1: 0; 0.1–0.2: 1; 0.2–0.22: −1; 0.22–0.3: 3.
        #expect(abs(travel.x - (0.1 - 0.02 + 0.24)) < 1e-9)
    }

    @Test func aPauseInTheCommandsStartsTheRecordAgain() {
        var inFlight = CommandsInFlight()
        for i in 0...5 { inFlight.record(Vector3D(x: 0, y: 1, z: 0), at: Double(i) / 30, horizon: 0.1) }
        #expect(inFlight.travel(at: 1.0, latency: 0.1) == nil, "nothing sent for most of a second")
        inFlight.record(Vector3D(), at: 1.0, horizon: 0.1)
        #expect(inFlight.travel(at: 1.05, latency: 0.1) == nil, "the old commands are forgotten")
    }
}
