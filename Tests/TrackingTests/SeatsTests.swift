import DockCore
import Foundation
import Testing

@testable import Tracking

/// Seats remember where people sat while the head looks elsewhere; faceless voices learn machines.
@Suite(.tags(.unit)) struct SeatsTests {
    let degree = Double.pi / 180
    func at(_ t: Double) -> MonotonicInstant { MonotonicInstant(seconds: t) }

    @Test func aPersonOutOfViewKeepsTheirSeatAndTakesItBackUnderANewTrack() throws {
        var seats = Seats()
        let first = UUID()
        let again = UUID()
        seats.update(people: [(first, 30 * degree)], viewCentre: 20 * degree, halfField: 0.6, at: at(0))
        // The head turns away (to −40°): the person is out of view, the seat is remembered.
        seats.update(people: [], viewCentre: -40 * degree, halfField: 0.6, at: at(5))
        let remembered = try #require(seats.seat(id: first))
        #expect(remembered.occupant == nil && abs(remembered.bearing - 30 * degree) < 1e-9)
        #expect(seats.empty.map(\.id) == [first])
        // Back again, the tracker gives them a new identity 4° off: the same seat.
        seats.update(people: [(again, 34 * degree)], viewCentre: 20 * degree, halfField: 0.6, at: at(60))
        #expect(seats.seat(of: again)?.id == first && seats.seats.count == 1)
    }

    @Test func aNewcomerFarFromEverySeatGetsTheirOwn() {
        var seats = Seats()
        let one = UUID()
        let two = UUID()
        seats.update(people: [(one, 0)], viewCentre: 0, halfField: 0.6, at: at(0))
        seats.update(people: [(two, 25 * degree)], viewCentre: 0, halfField: 0.6, at: at(1))
        #expect(seats.seats.count == 2 && seats.seat(of: two)?.id == two)
    }

    @Test func aSeatEmptyInPlainViewIsGivenUpOneOutOfViewIsForgottenLate() {
        var seats = Seats()
        let near = UUID()
        let far = UUID()
        seats.update(people: [(near, 0), (far, 50 * degree)], viewCentre: 0, halfField: 1.0, at: at(0))
        // Both leave; the view stays on 0: the near seat is in plain view, the far one is not.
        var t = 0.5
        while t <= 4 {
            seats.update(people: [], viewCentre: 0, halfField: 0.6, at: at(t))
            t += 0.5
        }
        #expect(seats.seat(id: near) == nil && seats.seat(id: far) != nil)
        seats.update(people: [], viewCentre: 0, halfField: 0.6, at: at(121))
        #expect(seats.seats.isEmpty)
    }
}

@Suite(.tags(.unit)) struct FacelessVoicesTests {
    let degree = Double.pi / 180
    func at(_ t: Double) -> MonotonicInstant { MonotonicInstant(seconds: t) }

    @Test func aVoiceWithNoFaceForHalfAMinuteIsAMachine() {
        var voices = FacelessVoices()
        var t = 0.0
        while t < 29 {
            voices.hear(60 * degree + (Int(t) % 2 == 0 ? 3 : -3) * degree, seconds: 0.5, at: at(t))
            t += 0.5
        }
        #expect(!voices.isMachine(60 * degree))
        while t < 31 {
            voices.hear(60 * degree, seconds: 0.5, at: at(t))
            t += 0.5
        }
        #expect(voices.isMachine(62 * degree) && !voices.isMachine(-20 * degree))
        // Silent for longer than the memory: forgotten (it may have moved).
        voices.hear(-20 * degree, seconds: 0.1, at: at(700))
        #expect(!voices.isMachine(60 * degree))
    }

    @Test func aBearingLookedAtAndFoundEmptyIsAMachineAtOnce() {
        var voices = FacelessVoices()
        voices.hear(-70 * degree, seconds: 1, at: at(0))
        #expect(!voices.isMachine(-70 * degree))
        voices.foundNobody(at: -68 * degree, at: at(2))
        #expect(voices.isMachine(-70 * degree) && voices.machineBearings.count == 1)
        voices.foundNobody(at: 80 * degree, at: at(3))
        #expect(voices.isMachine(80 * degree) && voices.machineBearings.count == 2)
    }
}

@Suite(.tags(.unit)) struct UnseenVoiceSearchTests {
    let degree = Double.pi / 180
    func at(_ t: Double) -> MonotonicInstant { MonotonicInstant(seconds: t) }

    /// Feeds `seconds` of unattributed speech from `bearing` from `start`, 20 ms windows, asking
    /// where to look after each; returns the first time a direction is given, and it.
    func listen(
        _ search: inout UnseenVoiceSearch, from bearing: Double, start: Double, seconds: Double, viewCentre: Double = 0
    ) -> (time: Double, direction: Double)? {
        var first: (Double, Double)?
        var t = start
        while t < start + seconds {
            search.hear(
                speech: true, voiced: true, bearing: bearing, clear: true, attributed: false, at: at(t), seconds: 0.02)
            if let d = search.direction(
                viewCentre: viewCentre, halfField: 0.5, framedHeard: false, framed: [], at: at(t)),
                first == nil
            {
                first = (t, d)
            }
            t += 0.02
        }
        return first
    }

    @Test func aVoiceThatLastsIsLookedForACoughIsNot() throws {
        var search = UnseenVoiceSearch(spread: 6 * degree, reach: 12 * degree)
        #expect(listen(&search, from: -50 * degree, start: 0, seconds: 0.35) == nil)
        var fresh = UnseenVoiceSearch(spread: 6 * degree, reach: 12 * degree)
        let look = try #require(listen(&fresh, from: -50 * degree, start: 0, seconds: 2))
        #expect(abs(look.time - 0.7) < 0.05 && abs(look.direction + 50 * degree) < 1e-9)
    }

    /// The head gets there and finds nobody for 1.5 s: the bearing is a machine and never
    /// draws the head again.
    @Test func aBearingLookedAtAndFoundEmptyNeverDrawsTheHeadAgain() throws {
        var search = UnseenVoiceSearch(spread: 6 * degree, reach: 12 * degree)
        _ = try #require(listen(&search, from: 60 * degree, start: 0, seconds: 1))
        // Now the view is centred on the voice, and nobody is framed there.
        _ = listen(&search, from: 60 * degree, start: 1, seconds: 2, viewCentre: 60 * degree)
        #expect(search.faceless.isMachine(60 * degree))
        #expect(listen(&search, from: 60 * degree, start: 3, seconds: 3) == nil)
    }

    /// Someone framed found where the head looks ends the search.
    @Test func someoneFramedWhereTheHeadLooksEndsTheSearch() throws {
        var search = UnseenVoiceSearch(spread: 6 * degree, reach: 12 * degree)
        _ = try #require(listen(&search, from: -40 * degree, start: 0, seconds: 1))
        let after = search.direction(
            viewCentre: -20 * degree, halfField: 0.5, framedHeard: false, framed: [-35 * degree], at: at(1.02))
        #expect(after == nil)
    }
}
