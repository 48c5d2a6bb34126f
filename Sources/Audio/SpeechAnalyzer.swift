import DockCore
import Foundation

/// What the microphones say about one short stretch of time.
public struct AudioWindow: Sendable, Hashable {
    /// Centre of the window on the frames' clock.
    public var time: MonotonicInstant
    public var isSpeech: Bool
    public var energyDecibels: Double
    /// Direction of the sound (radians, positive right, in the array's frame), when stereo and speech.
    public var direction: Double?
    /// How clear the direction is (GCC-PHAT peak, 0…1).
    public var coherence: Double?
}

/// Turns a clip into a timeline of voice activity and direction, window by window, in order.
/// A mono clip gives voice activity without direction.
public struct SpeechAnalyzer: Sendable {
    public let clip: AudioClip
    public let array: MicrophoneArray
    public let windowSeconds: Double
    private var detector: VoiceActivityDetector
    private var next = 0

    /// Refuses rates too low to place a talker (below 16 kHz) with a message that says so.
    public init(clip: AudioClip, array: MicrophoneArray = MicrophoneArray(), windowSeconds: Double = 0.02) throws(AudioError) {
        guard clip.sampleRate >= 16000 else {
            throw AudioError("audio at \(Int(clip.sampleRate)) Hz is too coarse to place a talker; record at 16 kHz or more (48 kHz is best)")
        }
        self.clip = clip
        self.array = array
        self.windowSeconds = windowSeconds
        detector = VoiceActivityDetector(windowSeconds: windowSeconds)
    }

    /// Every window ending at or before `time` not yet returned.
    public mutating func windows(until time: MonotonicInstant) -> [AudioWindow] {
        let size = max(16, Int(windowSeconds * clip.sampleRate))
        let end = min(clip.index(at: time), clip.frameCount)
        var out: [AudioWindow] = []
        // Direction wants more samples than voice activity: a window of about 40 ms around the centre.
        let span = max(size, Int(0.04 * clip.sampleRate))
        let maxLag = Int((array.maximumDelay * clip.sampleRate).rounded(.up)) + 2
        while next + size <= end {
            let range = next..<next + size
            let decision = detector.update(clip.channels[0][range])
            var direction: Double?, coherence: Double?
            if decision.isSpeech && clip.isStereo {
                let centre = next + size / 2
                let from = max(0, centre - span / 2), to = min(clip.frameCount, from + span)
                if to - from > 2 * maxLag, let found = GCCPHAT.delay(left: clip.channels[0][from..<to], right: clip.channels[1][from..<to], maxLag: maxLag) {
                    direction = array.angle(forDelay: found.samples / clip.sampleRate)
                    coherence = found.peak
                }
            }
            out.append(AudioWindow(time: clip.start.advanced(bySeconds: (Double(next) + Double(size) / 2) / clip.sampleRate),
                                   isSpeech: decision.isSpeech, energyDecibels: decision.energyDecibels,
                                   direction: direction, coherence: coherence))
            next += size
        }
        return out
    }
}
