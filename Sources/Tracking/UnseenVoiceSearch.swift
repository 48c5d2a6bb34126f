import DockCore
import Foundation

/// A voice nobody in the room was given (someone out of view): once it has lasted longer than a
/// cough, the head looks toward it until someone framed is heard there, the voice falls quiet,
/// or the head has looked a while and found nobody (then the bearing is a machine and never
/// draws the head again: `FacelessVoices`). Bearings in radians, the room's frame. Pure: every
/// window and every look comes with its time.
public struct UnseenVoiceSearch: Sendable {
    /// A voice from where nobody sits must have been heard this long (speech-like windows)
    /// before the head turns to it: a door, a cough, a laugh from the corridor are shorter.
    public var confirmation = 0.7
    /// Looking at the voice's bearing this long without finding a face: nobody is there.
    public var searchSeconds = 1.5
    /// How far (radians) one voice's directions spread: a voice within 2.5 of it from where the
    /// head looks is the one looked for.
    public var spread: Double
    /// Someone framed this close (radians) to where the head looks has been found.
    public var reach: Double
    /// Voices heard nowhere near a seat this long ago are forgotten.
    public var forgetSeconds = 1.5

    private var since: MonotonicInstant?
    private var bearings: [Double] = []
    private var windowSeconds = 0.02
    /// Where the head looks, when the voice there was last heard, since when it is in view.
    private var looking: (direction: Double, lastHeard: MonotonicInstant, inViewSince: MonotonicInstant?)?
    public private(set) var faceless = FacelessVoices()

    public init(spread: Double, reach: Double) {
        self.spread = spread
        self.reach = reach
    }

    /// One audio window: speech or not, its bearing when clear enough to place (`clear`), and
    /// whether the speech was given to someone.
    public mutating func hear(
        speech: Bool, voiced: Bool, bearing: Double?, clear: Bool, attributed: Bool, at time: MonotonicInstant,
        seconds: Double
    ) {
        windowSeconds = seconds
        if speech, let bearing, let look = looking, abs(bearing - look.direction) < 2.5 * spread {
            looking?.lastHeard = time
        }
        guard speech, let bearing, clear else {
            if let since, time.seconds(since: since) > forgetSeconds { reset() }
            return
        }
        if attributed {
            reset()
            return
        }
        if voiced { faceless.hear(bearing, seconds: seconds, at: time) }
        if faceless.isMachine(bearing) { return }
        if since == nil { since = time }
        bearings.append(bearing)
        if bearings.count > 50 { bearings.removeFirst(bearings.count - 50) }
    }

    /// Where to look now (nil: nowhere). `framedHeard`: someone framed is heard; `framed`: the
    /// bearings of those framed by speech.
    public mutating func direction(
        viewCentre: Double, halfField: Double, framedHeard: Bool, framed: [Double], at now: MonotonicInstant
    ) -> Double? {
        let heardEnough = Double(bearings.count) * windowSeconds >= confirmation
        if looking == nil, let since, now.seconds(since: since) >= confirmation, heardEnough {
            looking = (bearings.sorted()[bearings.count / 2], now, nil)
        }
        if let look = looking {
            if abs(look.direction - viewCentre) < 0.7 * halfField, look.inViewSince == nil {
                looking?.inViewSince = now
            }
            if let inView = looking?.inViewSince, now.seconds(since: inView) >= searchSeconds {
                faceless.foundNobody(at: look.direction, at: now)
                reset()
                looking = nil
            }
        }
        if let look = looking,
            framedHeard || now.seconds(since: look.lastHeard) > 1.5
                || framed.contains(where: { abs($0 - look.direction) < reach })
        {
            looking = nil
        }
        return looking?.direction
    }

    /// The head has someone better to look at (a seat out of view): the search ends.
    public mutating func stop() { looking = nil }

    private mutating func reset() {
        since = nil
        bearings = []
    }
}
