import DockCore
import Foundation
import TestSupport
import Testing

@testable import Control

@Suite(.tags(.unit)) struct LostSubjectSearchTests {
    let degree = Double.pi / 180
    let search = LostSubjectSearch()
    let home = Vector3D(x: 0.05, y: -0.1, z: 0)

    @Test func aSubjectThatWalkedOutIsFollowedUpToTheReachThenSweptForThenLeftForHome() {
        let last = LostSubjectSearch.Sighting(time: 10, yaw: 20 * degree, pitch: 0.02, yawRate: 20 * degree)
        let early = search.aim(after: last, at: 10.5, home: home)
        #expect(early.phase == .following)
        #expect(abs(early.yaw - 30 * degree) < 1e-9 && early.yawRate == 20 * degree)
        let waiting = search.aim(after: last, at: 12, home: home)
        #expect(abs(waiting.yaw - 45 * degree) < 1e-9 && waiting.yawRate == 0, "stops \(25)° past where it was seen")
        // The sweep stays within its amplitude of the last seen direction and moves at its speed.
        var previous: Double?
        for step in 0..<200 {
            let aim = search.aim(after: last, at: 13 + Double(step) * 0.025, home: home)
            #expect(aim.phase == .sweeping)
            #expect(abs(aim.yaw - last.yaw) <= search.settings.sweepAmplitude + 1e-9)
            if let previous { #expect(abs(aim.yaw - previous) <= search.settings.sweepSpeed * 0.025 + 1e-9) }
            previous = aim.yaw
        }
        let late = search.aim(after: last, at: 18.5, home: home)
        #expect(late.phase == .home && late.yaw == home.y && late.pitch == home.x)
        #expect(late.speedLimit == search.settings.homeSpeed)
    }

    @Test func aStillSubjectIsLookedForWhereItStood() {
        let last = LostSubjectSearch.Sighting(time: 0, yaw: -5 * degree, pitch: 0, yawRate: 0)
        for t in stride(from: 0.0, to: 3.0, by: 0.1) {
            let aim = search.aim(after: last, at: t, home: home)
            #expect(aim.yaw == -5 * degree && aim.yawRate == 0 && aim.phase == .following)
        }
    }

    @Test func withoutAHomeTimeTheHeadNeverGoesHome() {
        var settings = LostSubjectSearch.Settings()
        settings.homeAfter = nil
        let last = LostSubjectSearch.Sighting(time: 0, yaw: 0, pitch: 0, yawRate: 0)
        #expect(LostSubjectSearch(settings: settings).aim(after: last, at: 600, home: home).phase == .sweeping)
    }
}
