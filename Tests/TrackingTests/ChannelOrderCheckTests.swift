import Foundation
import Testing

@testable import Tracking

@Suite(.tags(.unit)) struct ChannelOrderCheckTests {
    let degree = Double.pi / 180

    /// Windows 20 ms apart, the talker alternating sides every second, the sound heard on
    /// `side` × the talker's side, with `flipped` of every ten windows the other way (echoes).
    func feed(_ check: inout ChannelOrderCheck, side: Double, flipped: Int, seconds: Double)
        -> ChannelOrderCheck.Verdict?
    {
        var verdict: ChannelOrderCheck.Verdict?
        for i in 0..<Int(seconds / 0.02) {
            let time = Double(i) * 0.02
            let talker = (Int(time) % 2 == 0 ? -1.0 : 1.0) * 15 * degree
            let heard = talker * side * (i % 10 < flipped ? -1 : 1) * 0.8
            if let v = check.observe(sound: heard, talker: talker, at: time) { verdict = v }
        }
        return verdict
    }

    @Test func aPairWiredTheOtherWayIsFoundAndSaidOnce() {
        var check = ChannelOrderCheck()
        #expect(feed(&check, side: -1, flipped: 1, seconds: 6) == .swapped)
        #expect(check.verdict == .swapped && check.opposing > check.agreeing * 8)
        // Enough windows came early, but not the three seconds they must span.
        #expect(abs(check.decidedAt! - 3) < 0.05)
        let line = check.finding(order: "left-right", other: "right-left")
        #expect(line?.hasSuffix("start again with --mic-order right-left") == true, "\(line ?? "")")
        // Decided: later windows change nothing.
        #expect(feed(&check, side: 1, flipped: 0, seconds: 6) == nil && check.verdict == .swapped)
    }

    @Test func aPairWiredAsConfiguredIsConfirmedAndSaysNothing() {
        var check = ChannelOrderCheck()
        #expect(feed(&check, side: 1, flipped: 1, seconds: 6) == .asConfigured)
        #expect(check.finding(order: "left-right", other: "right-left") == nil)
    }

    @Test func aMuddledRoomDecidesNothing() {
        var check = ChannelOrderCheck()
        // Four in ten windows from the wrong side: neither way reaches 80 %.
        #expect(feed(&check, side: 1, flipped: 4, seconds: 20) == nil)
        #expect(check.verdict == .undecided && check.agreeing + check.opposing > 500)
    }

    @Test func talkersAndSoundsNearTheAxisTellNoSide() {
        var check = ChannelOrderCheck()
        for i in 0..<500 {
            _ = check.observe(sound: -10 * degree, talker: 4 * degree, at: Double(i) * 0.02)
            _ = check.observe(sound: 2 * degree, talker: -20 * degree, at: Double(i) * 0.02)
        }
        #expect(check.agreeing + check.opposing == 0 && check.verdict == .undecided)
    }
}
