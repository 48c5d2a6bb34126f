/// A sound in a room that is not speech: machines that run all the time (stationary, coloured)
/// and events that come and go (transient). Each is synthesized from its seed, so a scene sounds
/// the same on every run.
public enum NoiseKind: String, Sendable, Hashable, CaseIterable {
    /// Broadband, pink-tilted, with the blades' hum and its harmonics.
    case fan
    /// A low rumble with a softer hiss above it.
    case airConditioner = "air-conditioner"
    /// A small fan and the whine of its electronics.
    case projector
    /// A slam: a low thump and a click, at each of its times.
    case door
    /// Key clicks, six to nine a second, over each of its spans.
    case typing
    /// Two bursts of breath through the throat at each of its times.
    case cough
    /// "Ha-ha-ha": breathy, voiced syllables five a second, at each of its times.
    case laughter

    public var isStationary: Bool { self == .fan || self == .airConditioner || self == .projector }
}
