import Foundation

/// Tells a microphone pair wired the other way round from one wired as configured, by what a
/// room shows anyway: while one person's lips move and the others' do not, and speech comes
/// clearly from one side, it should come from that person's side. A pair wired the other way
/// hears every voice mirrored, so the head would go to whoever sits opposite the speaker. Pure:
/// fed once per audio window; decides once, after enough windows, and keeps its verdict.
public struct ChannelOrderCheck: Sendable {
    public struct Settings: Sendable {
        /// A talker this near the pair's axis, or a sound this near it, tells no side.
        public var minimumTalkerAngle = 6 * Double.pi / 180
        public var minimumSoundAngle = 3 * Double.pi / 180
        /// Windows that count before a verdict, and the time they must span (several
        /// utterances, not one echo-prone syllable).
        public var windowsNeeded = 60
        public var secondsSpanned = 3.0
        /// The share of counted windows one way that decides.
        public var agreement = 0.8
        public init() {}
    }

    public enum Verdict: Sendable, Equatable {
        case undecided
        /// The sound comes from the talker's side: the pair is read as it is wired.
        case asConfigured
        /// The sound comes from the side opposite the talker: left and right are swapped.
        case swapped
    }

    public var settings: Settings
    public private(set) var verdict = Verdict.undecided
    /// Windows where the sound came from the talker's side, and from the other side.
    public private(set) var agreeing = 0
    public private(set) var opposing = 0
    /// When the verdict came (the window's time, seconds).
    public private(set) var decidedAt: Double?
    private var first: Double?
    private var last: Double?

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// One window of clear speech while one person's lips move: the sound's direction and the
    /// talker's, both in the microphones' own frame (radians, positive right). Returns the
    /// verdict when this window settles it.
    public mutating func observe(sound: Double, talker: Double, at time: Double) -> Verdict? {
        guard verdict == .undecided, abs(talker) >= settings.minimumTalkerAngle,
            abs(sound) >= settings.minimumSoundAngle
        else { return nil }
        if (sound > 0) == (talker > 0) { agreeing += 1 } else { opposing += 1 }
        first = first ?? time
        last = time
        let counted = agreeing + opposing
        guard counted >= settings.windowsNeeded, let first, let last, last - first >= settings.secondsSpanned
        else { return nil }
        if Double(opposing) >= settings.agreement * Double(counted) {
            verdict = .swapped
        } else if Double(agreeing) >= settings.agreement * Double(counted) {
            verdict = .asConfigured
        } else {
            return nil
        }
        decidedAt = time
        return verdict
    }

    /// The one line for a pair found swapped; nil otherwise.
    public func finding(order: String, other: String) -> String? {
        guard verdict == .swapped else { return nil }
        return
            "microphones: the sound came from the side opposite the person whose lips moved (\(opposing) of \(agreeing + opposing) windows): the pair is wired the other way round from --mic-order \(order); start again with --mic-order \(other)"
    }
}
