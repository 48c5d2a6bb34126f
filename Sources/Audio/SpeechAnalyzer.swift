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
    /// How clearly one direction stands out (0…1).
    public var coherence: Double?
    /// This window itself is voiced (`isSpeech` also covers the gaps between syllables).
    public var voiced = false
    /// The speech band over the room's noise floor (dB), and how periodic the sound is (0…1).
    public var snrDecibels = 0.0
    public var harmonicity = 0.0
}

/// Turns sound into a timeline of voice activity and direction, window by window, in order:
/// a whole recording at once, or a live capture block by block (`RoomFrontEnd` measures each
/// window against the room's noise). Mono gives voice activity without direction.
public struct SpeechAnalyzer: Sendable {
    public let sampleRate: Double
    public let channelCount: Int
    public let array: MicrophoneArray
    public let windowSeconds: Double
    private var frontEnd: RoomFrontEnd
    /// Speech goes on this long after the last voiced window (s): syllable gaps are speech.
    public var hangover = 0.25
    private var sinceVoiced = Double.infinity
    /// Samples not yet analysed, plus the look-back direction finding needs; `buffer[c][0]` is
    /// sample `base` of the current timeline, which began at `timelineStart`.
    private var buffer: [[Float]]
    private var base = 0
    private var next = 0
    private var timelineStart: MonotonicInstant?
    /// Timelines restarted because a block did not continue the last one (lost samples, a
    /// clock that drifted more than `resyncSeconds`).
    public private(set) var restarts = 0
    public var resyncSeconds = 0.1

    /// Refuses rates too low to place a talker (below 16 kHz) with a message that says so.
    public init(
        sampleRate: Double, channelCount: Int, array: MicrophoneArray = MicrophoneArray(), windowSeconds: Double = 0.02
    ) throws(AudioError) {
        guard sampleRate >= 16000 else {
            throw AudioError(
                "audio at \(Int(sampleRate)) Hz is too coarse to place a talker; record at 16 kHz or more (48 kHz is best)"
            )
        }
        guard channelCount >= 1 else { throw AudioError("audio without channels") }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.array = array
        self.windowSeconds = windowSeconds
        frontEnd = RoomFrontEnd(sampleRate: sampleRate, array: array)
        buffer = Array(repeating: [], count: channelCount)
    }

    /// A whole recording, analysed as time passes.
    public init(clip: AudioClip, array: MicrophoneArray = MicrophoneArray(), windowSeconds: Double = 0.02)
        throws(AudioError)
    {
        try self.init(
            sampleRate: clip.sampleRate, channelCount: clip.channels.count, array: array, windowSeconds: windowSeconds)
        append(clip.channels, start: clip.start, followsGap: false)
        isComplete = true
    }

    /// No more sound will come (a whole recording): the last windows need not wait for look-ahead.
    private var isComplete = false

    public var isStereo: Bool { channelCount >= 2 }

    /// Adds captured sound. A block that does not continue the timeline (a gap, or a start more
    /// than `resyncSeconds` from where the last block ended) starts a new one.
    public mutating func append(_ block: AudioBlock) {
        append(block.channels, start: block.start, followsGap: block.followsGap)
    }

    private mutating func append(_ channels: [[Float]], start: MonotonicInstant, followsGap: Bool) {
        guard channels.count == channelCount, let count = channels.first?.count, count > 0 else { return }
        if let origin = timelineStart {
            let expected = origin.advanced(bySeconds: Double(base + buffer[0].count) / sampleRate)
            if followsGap || abs(start.seconds(since: expected)) > resyncSeconds {
                restarts += 1
                timelineStart = nil
            }
        }
        if timelineStart == nil {
            timelineStart = start
            base = 0
            next = 0
            for c in buffer.indices { buffer[c].removeAll(keepingCapacity: true) }
        }
        for c in buffer.indices { buffer[c].append(contentsOf: channels[c]) }
    }

    /// Every window ending at or before `time` not yet returned.
    public mutating func windows(until time: MonotonicInstant) -> [AudioWindow] {
        guard let origin = timelineStart else { return [] }
        let size = max(16, Int(windowSeconds * sampleRate))
        let available = base + buffer[0].count
        let end = min(Int((time.seconds(since: origin) * sampleRate).rounded(.down)), available)
        var out: [AudioWindow] = []
        // Direction wants more samples than voice activity: a window of about 40 ms around the centre.
        let span = max(size, Int(0.04 * sampleRate))
        // A window waits for the look-ahead its direction needs (10 ms live), so live analysis
        // finds what analysis of the whole recording finds.
        while next + size <= end, isComplete || next + size / 2 + span / 2 <= available {
            let range = (next - base)..<(next - base + size)
            var sum = 0.0
            for sample in buffer[0][range] { sum += Double(sample) * Double(sample) }
            let energy = 10 * log10(sum / Double(size) + 1e-12)
            let centre = next + size / 2
            let from = max(base, centre - span / 2)
            let to = min(available, centre + span / 2)
            let slice = (from - base)..<(to - base)
            let left = buffer[isStereo ? array.leftChannel : 0][slice]
            let right = buffer[isStereo ? array.rightChannel : 0][slice]
            // A mono microphone copied to both channels has no direction in it (not "ahead").
            let measures = frontEnd.measure(left: left, right: right, stereo: isStereo && left != right)
            sinceVoiced = measures.voiced ? 0 : sinceVoiced + windowSeconds
            out.append(
                AudioWindow(
                    time: origin.advanced(bySeconds: (Double(next) + Double(size) / 2) / sampleRate),
                    isSpeech: sinceVoiced <= hangover, energyDecibels: energy, direction: measures.direction,
                    coherence: measures.coherence, voiced: measures.voiced, snrDecibels: measures.snrDecibels,
                    harmonicity: measures.harmonicity))
            next += size
        }
        trim(keeping: span)
        return out
    }

    /// Drops analysed samples, keeping `span` of look-back; in whole seconds, so a long
    /// recording is not copied window by window.
    private mutating func trim(keeping span: Int) {
        let disposable = next - span - base
        guard disposable >= Int(sampleRate) else { return }
        for c in buffer.indices { buffer[c].removeFirst(disposable) }
        base += disposable
    }
}
