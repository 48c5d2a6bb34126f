/// What can be wrong with a microphone that still delivers samples: it is muted (digital
/// silence), it clips (the gain is too high), or a mono microphone is copied to both channels of a
/// stereo device (no direction in it). Each is reported once, as one line that says what to do;
/// the run goes on, following speakers by vision and lips where the sound cannot help.
public enum MicrophoneProblem: Sendable, Hashable {
    case silent(seconds: Double)
    case clipping(share: Double)
    case identicalChannels

    public func message(device: String) -> String {
        switch self {
        case .silent(let seconds):
            "microphone '\(device)' gives only silence (\(Int(seconds)) s of zeros): unmute it or raise its capture level (alsamixer); following speakers by vision"
        case .clipping(let share):
            "microphone '\(device)' clips (\(Int((share * 100).rounded())) % of samples at full scale): lower its capture gain (alsamixer); directions may be wrong until then"
        case .identicalChannels:
            "microphone '\(device)' sends the same signal on both channels (a mono microphone): no direction from it; speech goes to whoever's lips move"
        }
    }
}

/// Watches captured blocks for `MicrophoneProblem`s. Pure: fed blocks, returns what it found
/// new in them.
public struct MicrophoneCheck: Sendable {
    /// Digital silence this long, every channel, is a muted or disconnected microphone.
    public var silentSeconds = 2.0
    /// Within a second, this share of samples at full scale is clipping.
    public var clippingShare = 0.005
    /// Stereo sound this long (not silent) with both channels equal is a mono microphone.
    public var identicalSeconds = 1.0

    private var silentRun = 0.0
    private var identicalRun = 0.0
    private var second = (samples: 0, clipped: 0)
    public private(set) var reported: Set<MicrophoneProblem.Kind> = []

    public init() {}

    public mutating func inspect(_ block: AudioBlock) -> [MicrophoneProblem] {
        guard let count = block.channels.first?.count, count > 0, block.sampleRate > 0 else { return [] }
        var found: [MicrophoneProblem] = []
        var peak: Float = 0
        var clipped = 0
        for channel in block.channels {
            for sample in channel {
                let level = abs(sample)
                peak = max(peak, level)
                if level >= 0.999 { clipped += 1 }
            }
        }
        let seconds = Double(count) / block.sampleRate
        let silent = peak < 1e-6
        silentRun = silent ? silentRun + seconds : 0
        if silentRun >= silentSeconds { report(.silent(seconds: silentRun), into: &found) }

        second.samples += count * block.channels.count
        second.clipped += clipped
        if Double(second.samples) >= block.sampleRate * Double(block.channels.count) {
            let share = Double(second.clipped) / Double(second.samples)
            if share >= clippingShare { report(.clipping(share: share), into: &found) }
            second = (0, 0)
        }

        if block.channels.count >= 2, !silent {
            identicalRun = block.channels[0] == block.channels[1] ? identicalRun + seconds : 0
            if identicalRun >= identicalSeconds { report(.identicalChannels, into: &found) }
        }
        return found
    }

    private mutating func report(_ problem: MicrophoneProblem, into found: inout [MicrophoneProblem]) {
        if reported.insert(problem.kind).inserted { found.append(problem) }
    }
}

extension MicrophoneProblem {
    public enum Kind: Sendable, Hashable { case silent, clipping, identicalChannels }
    public var kind: Kind {
        switch self {
        case .silent: .silent
        case .clipping: .clipping
        case .identicalChannels: .identicalChannels
        }
    }
}
