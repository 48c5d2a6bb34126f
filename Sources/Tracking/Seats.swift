import DockCore
import Foundation

/// Where the people in the room sit, by bearing (radians, in the room's frame: the head's yaw
/// plus the angle in the view), remembered while they are out of the view. A voice from a seat
/// nobody in view occupies is that person's: the head can turn to the bearing where they were
/// seen, not to where a reverberant room says the voice is. Seats outlive the tracker's
/// identities: a person found again near their seat takes it back under a new track.
/// Pure: time and the view come with each update.
public struct Seats: Sendable {
    public struct Seat: Sendable, Hashable {
        /// The seat's identity: the first track seen there. Speaker evidence and the policy use it.
        public var id: UUID
        public var bearing: Double
        /// The track in it now (nil: out of view, or gone a moment).
        public var occupant: UUID?
        public var lastSeen: MonotonicInstant
        /// Since when the seat has been in plain view with nobody in it.
        var vacantInViewSince: MonotonicInstant?
    }

    /// A track this close (radians) to a free seat takes it.
    public var claimReach = 10 * Double.pi / 180
    /// A seat in plain view with nobody in it this long is given up (the person left).
    public var vacantSeconds = 3.0
    /// A seat nobody has been seen in for this long is forgotten.
    public var forgetSeconds = 120.0

    public private(set) var seats: [Seat] = []

    public init() {}

    /// The people tracked now (track identity, room bearing), and the view's bearings:
    /// `viewCentre` ± `halfField`.
    public mutating func update(
        people: [(uuid: UUID, bearing: Double)], viewCentre: Double, halfField: Double, at now: MonotonicInstant
    ) {
        let present = Set(people.map(\.uuid))
        for i in seats.indices where seats[i].occupant.map({ !present.contains($0) }) ?? false {
            seats[i].occupant = nil
        }
        for person in people {
            if let i = seats.firstIndex(where: { $0.occupant == person.uuid || $0.id == person.uuid }) {
                seat(i, person, at: now)
                continue
            }
            let free = seats.indices.filter { seats[$0].occupant == nil }
            if let i = free.min(by: {
                abs(seats[$0].bearing - person.bearing) < abs(seats[$1].bearing - person.bearing)
            }),
                abs(seats[i].bearing - person.bearing) <= claimReach
            {
                seat(i, person, at: now)
            } else {
                seats.append(Seat(id: person.uuid, bearing: person.bearing, occupant: person.uuid, lastSeen: now))
            }
        }
        for i in seats.indices where seats[i].occupant == nil {
            let inPlainView = abs(seats[i].bearing - viewCentre) < 0.7 * halfField
            if inPlainView {
                if seats[i].vacantInViewSince == nil { seats[i].vacantInViewSince = now }
            } else {
                seats[i].vacantInViewSince = nil
            }
        }
        seats.removeAll { seat in
            guard seat.occupant == nil else { return false }
            if let since = seat.vacantInViewSince, now.seconds(since: since) > vacantSeconds { return true }
            return now.seconds(since: seat.lastSeen) > forgetSeconds
        }
    }

    private mutating func seat(_ i: Int, _ person: (uuid: UUID, bearing: Double), at now: MonotonicInstant) {
        seats[i].occupant = person.uuid
        seats[i].bearing = person.bearing
        seats[i].lastSeen = now
        seats[i].vacantInViewSince = nil
    }

    /// The seat a track sits in.
    public func seat(of track: UUID) -> Seat? { seats.first { $0.occupant == track } }
    public func seat(id: UUID) -> Seat? { seats.first { $0.id == id } }
    /// Seats whose person is out of view now.
    public var empty: [Seat] { seats.filter { $0.occupant == nil } }
}
